"""The frames a skipped frame's eager run makes Dynamo compile, in an installed package's model:
each function it calls is a frame of its own when convert_frame's `has_tensor_in_frame` holds (a
tensor or module among its arguments, or torch read as a global), and the calls of one it does not
compile run eagerly too (a cache whose `__init__` holds no tensor builds layers whose `__init__`
uses torch). A frame called again (the next block of the loop) recompiles on the guard torch
checks first: a frame local's before what is read from an nn.Module (`L['cache']...` before
`L['self'].idx`). All of it checked against torch 2.13."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from vtlint.analyzer import analyze
from vtlint.analyzer.files import discover
from vtlint.config import Config
from vtlint.trace import Action, Event

MODEL = """
    import torch
    from torch import nn


    class Layer:
        def __init__(self):
            self.ready = False
            self.scale = torch.ones(1)


    class Cache:
        def __init__(self, n):
            self.layers = []
            for _ in range(n):
                self.layers.append(Layer())


    def describe(n):
        return f"{n} blocks"


    def positive(x):
        return x > 0


    class Block(nn.Module):
        def __init__(self, idx):
            super().__init__()
            self.idx = idx
            self.proj = nn.Linear(4, 4)

        def forward(self, x, cache):
            layer = cache.layers[self.idx]
            if not layer.ready:
                layer.ready = True
            return self.proj(x) * layer.scale


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([Block(0), Block(1)])

        def forward(self, x):
            cache = Cache(len(self.blocks))
            describe(len(self.blocks))
            mask = positive(x)
            for block in self.blocks:
                x = block(x, cache)
                if x.sum() > 1e9:
                    x = x * 2
            return x * mask
"""
SCRIPT = """
    import torch
    from eagerlib.model import Model

    model = torch.compile(Model())
    with torch.no_grad():
        model(torch.ones(2, 4))
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "env" / "lib" / "site-packages"
    (site / "eagerlib").mkdir(parents=True)
    (site / "eagerlib" / "__init__.py").write_text("")
    (site / "eagerlib" / "model.py").write_text(textwrap.dedent(MODEL).lstrip("\n"))
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    monkeypatch.setenv("PYTHONPATH", str(site))
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "run.py").write_text(textwrap.dedent(SCRIPT).lstrip("\n"))
    return folder


def predicted(folder: Path) -> list[Event]:
    config = Config(root=folder)
    return analyze(discover([folder], config).files, config, use_cache=False).events


def frames(events: list[Event]) -> dict[str, int]:
    """Each compiled frame's entry (`Model.forward`, `Layer.__init__`) and its graphs."""
    return {e.entry.rpartition(":")[2]: int(e.detail.get("graph_count", 0)) for e in events if e.action is Action.FRAME}


def recompiles(events: list[Event]) -> set[tuple[str, str | None, str | None]]:
    return {(e.entry.rpartition(":")[2], e.source, e.guard_kind) for e in events if e.action is Action.RECOMPILE}


def test_a_skipped_frames_calls_are_frames_when_they_hold_a_tensor(project: Path) -> None:
    events = predicted(project)
    # `describe` (an int, no torch) and `Cache.__init__` (no tensor, no torch) are not compiled
    assert frames(events) == {"Model.forward": 0, "Layer.__init__": 1, "positive": 1, "Block.forward": 2}
    assert recompiles(events) == {("Block.forward", "L['cache'].layers[0].ready", "FALSE_MATCH")}


@pytest.mark.torch
def test_the_eager_frames_predicted_are_the_ones_torch_compiles(project: Path) -> None:
    from vtlint.runtime.step import run_step

    facts = run_step([sys.executable, "run.py"], project, timeout=300, library_frames=True)
    assert frames(predicted(project)) == frames(facts.events)
    assert recompiles(predicted(project)) == recompiles(facts.events)
