"""An installed package's method that assigns a module's int attribute (diffusers' `vae.enable_tiling()`
sets `self.tile_sample_min_height`) changes a value the compiled forward baked only when something calls
it: a script that never does compiles once; one that calls it between two calls recompiles."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from tests.analyzer.test_library_entries import check
from vtlint.trace import Action

PACKAGE = '''
    import torch
    from torch import nn


    class TiledDecoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(8, 8)
            self.tile_min = 64

        def enable_tiling(self, tile_min=None):
            self.tile_min = tile_min or self.tile_min

        def forward(self, x):
            if x.shape[-1] > self.tile_min:
                return self.proj(x).flip(-1)
            return self.proj(x)
'''

SCRIPT = '''
    import torch
    from tilelib.decoder import TiledDecoder


    def main():
        model = TiledDecoder().eval()
        compiled = torch.compile(model)
        with torch.no_grad():
            compiled(torch.randn(2, 8))
            {between}
            compiled(torch.randn(2, 8))


    if __name__ == "__main__":
        main()
'''

BETWEEN = {"never_called": "pass", "called_between_calls": "model.enable_tiling(4)"}


@pytest.fixture
def tile_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "env" / "lib" / "site-packages"
    (folder / "tilelib").mkdir(parents=True)
    (folder / "tilelib" / "__init__.py").write_text("")
    (folder / "tilelib" / "decoder.py").write_text(textwrap.dedent(PACKAGE).lstrip())
    monkeypatch.setattr(sys, "path", [str(folder), *sys.path])
    return folder


def _script(tmp_path: Path, style: str) -> Path:
    folder = tmp_path / style
    folder.mkdir()
    (folder / "run.py").write_text(textwrap.dedent(SCRIPT).lstrip().format(between=BETWEEN[style]))
    return folder


def _recompiled(events: list) -> set[str | None]:
    return {e.source for e in events if e.action is Action.RECOMPILE}


@pytest.mark.parametrize("style", sorted(BETWEEN))
def test_a_package_method_changes_a_baked_attribute_only_when_called(style: str, tile_site: Path,
                                                                    tmp_path: Path) -> None:
    predicted = _recompiled(check(_script(tmp_path, style)).events)
    assert predicted == ({"L['self'].tile_min"} if style == "called_between_calls" else set())


@pytest.mark.torch
@pytest.mark.parametrize("style", sorted(BETWEEN))
def test_the_recompiles_predicted_are_torch_s(style: str, tile_site: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from vtlint.runtime.step import run_step

    folder = _script(tmp_path, style)
    monkeypatch.setenv("PYTHONPATH", str(tile_site))
    facts = run_step([sys.executable, "run.py"], folder, timeout=300, library_frames=True)
    assert _recompiled(check(folder).events) == _recompiled(facts.events)
