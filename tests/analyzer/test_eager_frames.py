"""The frames a skipped frame's eager run makes Dynamo compile, in an installed package's model:
each function it calls is a frame of its own when convert_frame's `has_tensor_in_frame` holds (a
tensor or module among its arguments, or torch read as a global), and the calls of one it does not
compile run eagerly too (a cache whose `__init__` holds no tensor builds layers whose `__init__`
uses torch). A frame called again (the next block of the loop) recompiles on the guard torch
checks first: a frame local's before what is read from an nn.Module (`L['cache']...` before
`L['self'].idx`). A decorator's wrapper is one code object for every function it wraps: each
function compiled as a frame recompiles it, on the guard of the wrapper's own locals the most
recent cache entry fails. All of it checked against torch 2.13."""

from __future__ import annotations

import re
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


# transformers' `deprecate_kwarg` in small: `wrapped_func` reads the function's name, the receiver's
# class when the function takes `self`, and passes everything on
SHARED = """
    import functools
    import inspect

    import torch
    from torch import nn


    def deprecate_kwarg(old):
        def wrapper(func):
            is_instance_method = "self" in inspect.signature(func).parameters

            @functools.wraps(func)
            def wrapped_func(*args, **kwargs):
                func_name = func.__name__
                if is_instance_method:
                    func_name = f"{args[0].__class__.__name__}.{func_name}"
                if old in kwargs:
                    kwargs.pop(old)
                return func(*args, **kwargs)

            return wrapped_func

        return wrapper


    @deprecate_kwarg("old")
    def make_mask(x=None):
        return x > 0


    @deprecate_kwarg("old")
    def make_other(x=None):
        return x < 0


    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(4, 4)

        @deprecate_kwarg("old")
        def forward(self, x):
            return self.proj(x)


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([Block(), Block()])

        @deprecate_kwarg("old")
        def forward(self, x):
            m = make_mask(x=x)
            o = make_other(x=x)
            for block in self.blocks:
                x = block(x)
                if x.sum() > 1e9:
                    x = x * 2
            return x * m * o
"""
PACKAGES = {"eagerlib": MODEL, "sharedlib": SHARED}


def install(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Package `name` installed into a temporary site-packages; the script's folder."""
    site = tmp_path / "env" / "lib" / "site-packages"
    (site / name).mkdir(parents=True)
    (site / name / "__init__.py").write_text("")
    (site / name / "model.py").write_text(textwrap.dedent(PACKAGES[name]).lstrip("\n"))
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    monkeypatch.setenv("PYTHONPATH", str(site))
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "run.py").write_text(textwrap.dedent(SCRIPT).replace("eagerlib", name).lstrip("\n"))
    return folder


def predicted(folder: Path) -> list[Event]:
    config = Config(root=folder)
    return analyze(discover([folder], config).files, config, use_cache=False).events


def frames(events: list[Event]) -> dict[str, int]:
    """Each compiled frame's entry (`Model.forward`, `Layer.__init__`) and its graphs."""
    return {e.entry.rpartition(":")[2]: int(e.detail.get("graph_count", 0)) for e in events if e.action is Action.FRAME}


def recompiles(events: list[Event]) -> set[tuple[str, str | None, str | None]]:
    """Each recompile's entry and Source, or without a Source its guard's text (less the object id)."""
    return {(e.entry.rpartition(":")[2], e.source or re.sub(r", \d+\).*", ")", e.guard or ""), e.guard_kind)
            for e in events if e.action is Action.RECOMPILE}


def test_a_skipped_frames_calls_are_frames_when_they_hold_a_tensor(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    events = predicted(install("eagerlib", tmp_path, monkeypatch))
    # `describe` (an int, no torch) and `Cache.__init__` (no tensor, no torch) are not compiled
    assert frames(events) == {"Model.forward": 0, "Layer.__init__": 1, "positive": 1, "Block.forward": 2}
    assert recompiles(events) == {("Block.forward", "L['cache'].layers[0].ready", "FALSE_MATCH")}


def test_each_function_a_wrapper_wraps_recompiles_its_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = predicted(install("sharedlib", tmp_path, monkeypatch))
    assert recompiles(events) == {
        ("make_mask", "LENGTH_CHECK: len(L['args']) == 2", "LENGTH_CHECK"),  # Model.forward's took 2
        ("make_other", "ID_MATCH: ___check_obj_id(L['func'])", "ID_MATCH"),  # make_mask's took none either
        ("Block.forward", "LENGTH_CHECK: not L['args']", "LENGTH_CHECK"),
        ("Block.forward", "L['self']", "TYPE_MATCH"),  # Model.forward's entry: another receiver's class
    }


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_the_eager_frames_predicted_are_the_ones_torch_compiles(name: str, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from vtlint.runtime.step import run_step

    project = install(name, tmp_path, monkeypatch)
    facts = run_step([sys.executable, "run.py"], project, timeout=300, library_frames=True)
    assert frames(predicted(project)) == frames(facts.events)
    assert recompiles(predicted(project)) == recompiles(facts.events)
