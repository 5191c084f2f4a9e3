"""Comprehensions a skipped frame runs are frames Dynamo compiles (Python 3.11): their breaks are
predicted at the comprehension's line (tests/golden_breaks/programs/comprehension_frames*.py prove
them against torch) and, in an installed package's frame, reported at the script's call that reaches it."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from vtlint.check import run_check
from vtlint.config import Config
from vtlint.findings import Kind

pytestmark = pytest.mark.skipif(sys.version_info >= (3, 12), reason="comprehensions are inlined since Python 3.12")

MODEL = """
    import torch

    FLAGS = {"a": 1, "b": 2}


    class Model(torch.nn.Module):
        def forward(self, x):
            try:
                print("eager")
            except Exception:
                pass
            shifted = {k: x + v for k, v in FLAGS.items()}
            counts = {k: v + 1 for k, v in FLAGS.items()}  # no tensor, no torch global: not compiled
            return shifted["a"] + counts["b"]
"""
SCRIPT = """
    import torch
    from complib.model import Model

    model = torch.compile(Model())
    model(torch.ones(2))
"""


def test_a_packages_comprehension_frame_breaks_at_the_scripts_call(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "env" / "lib" / "site-packages"
    (site / "complib").mkdir(parents=True)
    (site / "complib" / "__init__.py").write_text("")
    (site / "complib" / "model.py").write_text(textwrap.dedent(MODEL).lstrip("\n"))
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    project = tmp_path / "project"
    project.mkdir()
    (project / "run.py").write_text(textwrap.dedent(SCRIPT).lstrip("\n"))
    result = run_check([project], Config(root=project), use_cache=False)
    breaks = {(f.gb_id, f.location.path, f.location.line, f.library[0].location.line if f.library else None)
              for f in result.findings if f.kind is Kind.GRAPH_BREAK}
    assert breaks == {("GB0059", "run.py", 5, 9), ("GB4347", "run.py", 5, 12)}
