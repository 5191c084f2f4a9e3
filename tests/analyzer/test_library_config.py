"""A package's config, built as the model is: a store through a class's `__setattr__` that maps names by
its `attribute_map` sets the mapped attribute (transformers' `config.layer_types = [...]` sets
`layers_block_type`), and eager library code that calls itself once more on another branch
(`remap_legacy_layer_types(config=self)` calling itself with the list) is followed, so the layer
kinds the model builds, and the graph break one of them makes, are the ones torch 2.13 sees."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from tests.analyzer.test_eager_frames import frames, predicted
from vtlint.trace import Action, Event

PACKAGE = """
    import torch
    from torch import nn

    _LEGACY = {"mamba": "linear"}


    def remap(kinds=None, config=None):
        if kinds is not None:
            return [_LEGACY.get(k, k) for k in kinds]
        if config.kinds is not None:
            if (remapped := remap(config.kinds)) != config.kinds:
                config.kinds = remapped


    class Config:
        attribute_map = {"kinds": "layer_kinds"}
        layer_kinds = None

        def __init__(self):
            self.kinds = ["mamba", "routed"]  # stored as `layer_kinds`
            remap(config=self)

        def __setattr__(self, key, value):
            if key in super().__getattribute__("attribute_map"):
                key = super().__getattribute__("attribute_map")[key]
            super().__setattr__(key, value)

        def __getattribute__(self, key):
            if key != "attribute_map" and key in super().__getattribute__("attribute_map"):
                key = super().__getattribute__("attribute_map")[key]
            return super().__getattribute__(key)


    class Linear(nn.Module):
        def forward(self, x):
            return x * 2


    class Routed(nn.Module):
        def forward(self, x):
            hit = (x > 0).nonzero()
            return x + hit.shape[0]


    KINDS = {"linear": Linear, "routed": Routed}


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            config = Config()
            self.layers = nn.ModuleList([KINDS[config.layer_kinds[i]]() for i in range(2)])

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return x
"""

SCRIPT = """
    import torch
    from configlib.model import Model

    model = torch.compile(Model())
    model(torch.randn(4))
"""


def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The package installed into a temporary site-packages; the script's folder."""
    site = tmp_path / "env" / "lib" / "site-packages"
    (site / "configlib").mkdir(parents=True)
    (site / "configlib" / "__init__.py").write_text("")
    (site / "configlib" / "model.py").write_text(textwrap.dedent(PACKAGE).lstrip("\n"))
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    monkeypatch.setenv("PYTHONPATH", str(site))
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "run.py").write_text(textwrap.dedent(SCRIPT).lstrip("\n"))
    return folder


def breaks(events: list[Event]) -> set[tuple[str, int, str | None]]:
    return {(Path(e.location.path).name, e.location.line, e.gb_type) for e in events if e.action is Action.GRAPH_BREAK}


def test_the_layer_kinds_come_from_the_mapped_store_and_the_remap(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    events = predicted(install(tmp_path, monkeypatch))
    assert breaks(events) == {("model.py", 41, "Dynamic shape operator")}  # Routed's nonzero()


@pytest.mark.torch
def test_the_breaks_and_frames_predicted_are_torchs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vtlint.runtime.step import run_step

    project = install(tmp_path, monkeypatch)
    facts = run_step([sys.executable, "run.py"], project, timeout=300, library_frames=True)
    assert breaks(predicted(project)) == breaks(facts.events)
    assert frames(predicted(project)) == frames(facts.events)
