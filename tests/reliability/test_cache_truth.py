"""The cache can only speed a run up, never change its result (issue 35, item 4): a
walk cached for one set of files is never replayed for a set with unreadable files
in it, a cached walk never replaces the run's own problems, and every input of the
reliability corpus (the broken sources and the sandbox's denial-of-service inputs) gives
byte-identical reports cold, partly warm, warm and with --no-cache. The walk also depends on what it reads outside the checked files (the
installed packages' sources, the trace_rules snapshot): a change there is a miss."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from reliability.corpus import CASES, GOOD
from tests.reliability.test_sandbox import BOMBS
from vtlint.analyzer import project as project_module
from vtlint.analyzer.files import MAX_SOURCE_BYTES
from vtlint.cli import main

# The corpus of broken sources, plus what item 4 was found with: a file over the size limit
# (sparse) and a UTF-16 byte-order mark, each an unreadable file (VTL002) with no walk of its own;
# and the sandbox's denial-of-service inputs, whose walks stop at a bound and say so in a note.
INPUTS: dict[str, bytes | int] = {case.name: case.data for case in CASES}
INPUTS["too_large_sparse"] = MAX_SOURCE_BYTES + 1
INPUTS["utf16_bom_junk"] = b"\xff\xfe bad"
INPUTS.update({f"sandbox_{bomb.name}": bomb.source.encode() for bomb in BOMBS})


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(folder))
    monkeypatch.setenv("VTLINT_STATE_DIR", str(tmp_path / "state"))
    return folder


def _write(path: Path, data: bytes | int) -> None:
    if isinstance(data, int):  # a size: a sparse file of that many bytes
        with path.open("wb") as handle:
            handle.truncate(data)
    else:
        path.write_bytes(data)


def _report(root: Path, *args: str) -> tuple[int, str, str]:
    """Exit code, stdout (the JSON report) and stderr (the notifications) of `vtlint check ARGS`."""
    cwd = os.getcwd()
    os.chdir(root)
    try:
        result = CliRunner().invoke(main, ["check", "--format", "json", *args], catch_exceptions=False)
    finally:
        os.chdir(cwd)
    assert "Traceback" not in result.output and "internal error" not in result.stderr, result.output
    return result.exit_code, result.stdout, result.stderr


def _project(tmp_path: Path, files: dict[str, bytes | int]) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    for name, data in files.items():
        _write(root / name, data)
    return root


def test_an_unreadable_file_is_never_hidden_by_a_walk_cached_without_it(tmp_path: Path, cache: Path) -> None:
    """`check ok.py`, then `check ok.py z.py u.py` said "All checks passed in 3 files.", exit 0."""
    root = _project(tmp_path, {"ok.py": b"x = 1\n", "z.py": 100 * 1024 * 1024, "u.py": b"\xff\xfe bad"})
    assert _report(root, "ok.py")[0] == 0
    code, warm, _ = _report(root, "ok.py", "z.py", "u.py")
    assert code == 1 and warm.count('"VTL002"') == 2, warm
    assert (code, warm) == _report(root, "ok.py", "z.py", "u.py", "--no-cache")[:2]


def test_one_files_problem_is_never_replayed_on_another(tmp_path: Path, cache: Path) -> None:
    """`check u1.py` then `check z1.py` reported u1's byte-order mark on z1: both walks had no file."""
    root = _project(tmp_path, {"u1.py": b"\xff\xfe bad", "z1.py": 100 * 1024 * 1024})
    _, first, _ = _report(root, "u1.py")
    _, second, _ = _report(root, "z1.py")
    assert '"path": "u1.py"' in first and "byte-order mark" in first
    assert '"path": "u1.py"' not in second and "byte-order mark" not in second
    assert "file too large" in second


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_cold_partly_warm_warm_and_uncached_reports_are_byte_identical(tmp_path: Path, cache: Path,
                                                                       name: str) -> None:
    """The cold/warm comparison over the reliability corpus: beside GOOD (a compiled function with a
    break), each input is checked cold after a run that cached GOOD's walk alone, then warm, then
    with --no-cache; the JSON reports and the notifications agree byte for byte."""
    root = _project(tmp_path, {"good.py": GOOD, f"{name}.py": INPUTS[name]})
    _report(root, "good.py")  # leaves a walk and a summary for a different set of files
    cold = _report(root, ".")
    assert any(cache.rglob("walk/*/*")), "nothing was cached: the comparison would compare nothing"
    assert _report(root, ".") == cold
    assert _report(root, ".", "--no-cache") == cold
    assert cold[0] == 1 and '"path": "good.py"' in cold[1]


MODEL = b"""import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)

    def forward(self, x):
        print(x)
        return self.lin(x)


torch.compile(M())(torch.ones(2))
"""


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="reads torch.nn's installed sources")
def test_a_changed_installed_source_is_a_miss(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk reads installed sources (torch.nn.Linear's here): the cached walk keeps their sizes and
    mtimes, and one of them changed since is a miss (here a stand-in, as torch's own stay untouched)."""
    root = _project(tmp_path, {"model.py": MODEL})
    stand_in = tmp_path / "site-packages" / "linear.py"
    stand_in.parent.mkdir()
    stand_in.write_text("x = 1\n")
    os.utime(stand_in, ns=(1, 1))
    stamps: list[tuple[project_module.Stamp, ...]] = []
    real = project_module._library_stamps

    def recorded(project: project_module.Project) -> tuple[project_module.Stamp, ...]:
        stamps.append(real(project))
        return (*stamps[-1], project_module._stamp(str(stand_in)))

    monkeypatch.setattr(project_module, "_library_stamps", recorded)
    first = _report(root, ".")
    assert any(path.endswith("torch/nn/modules/linear.py") for path, _, _ in stamps[0]), stamps
    assert _report(root, ".") == first and len(stamps) == 1  # nothing changed: a hit
    os.utime(stand_in, ns=(2, 2))
    assert _report(root, ".") == first and len(stamps) == 2  # a source changed: walked again
