"""Trace fixtures captured from torch 2.13 (see data/capture.py), moved under
a temporary project root so the events layer can read the sources."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from trace_data import relocate_log

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.fixture
def trace_fixture(tmp_path: Path) -> Callable[[str], tuple[Path, Path]]:
    """`trace_fixture("examples")` -> (trace dir, project root) with the sources in place."""

    def make(name: str) -> tuple[Path, Path]:
        root, trace = tmp_path / "project", tmp_path / "trace"
        root.mkdir()
        trace.mkdir()
        if name == "examples":
            shutil.copytree(EXAMPLES, root / "examples")
        else:
            for source in (DATA / name).glob("*.py"):
                shutil.copy(source, root / source.name)
        for item in (DATA / name).iterdir():
            if item.suffix in (".log", ".jsonl"):
                text = item.read_text(encoding="utf-8")
                moved = relocate_log(text, "/project", str(root)) if item.suffix == ".log" else text.replace("/project", str(root))
                (trace / item.name).write_text(moved, encoding="utf-8")
        return trace, root

    return make
