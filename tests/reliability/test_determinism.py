"""Nothing lost, nothing torn: the same input gives byte-identical JSON and SARIF
across runs, `--jobs` values, cold and warm caches; a corrupt or truncated cache
is rebuilt; two vtlint processes on one tree and one cache agree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The examples plus enough modules to use the worker pool (> 8 files), one of
    them long sums (deep in LibCST's tree) and one a syntax error."""
    root = tmp_path_factory.mktemp("det") / "project"
    shutil.copytree(EXAMPLES, root)
    for i in range(10):
        (root / f"mod_{i}.py").write_text(
            f"import torch\n\n\n@torch.compile\ndef f_{i}(x, n):\n    print(n)\n    return x * n + {i}\n\n\n"
            f"f_{i}(torch.ones(2), {i})\n")
    (root / "long_sum.py").write_text("x = " + " + ".join(["1"] * 1500) + "\n")
    # Regression: workers raise the recursion limit, so Python's AST check let this through
    # to LibCST (hours) with --jobs 2 while --jobs 1 called it too complex.
    (root / "very_long_sum.py").write_text("x = " + " + ".join(["1"] * 20_000) + "\n")
    (root / "broken.py").write_text("def f(:\n")
    return root


def _vtlint(root: Path, cache: Path, *args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "VTLINT_CACHE_DIR": str(cache)}
    return subprocess.Popen([sys.executable, "-m", "vtlint", "check", ".", "--exit-zero", *args], cwd=root, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _out(proc: subprocess.Popen[bytes]) -> bytes:
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr.decode()
    assert b"Traceback" not in stderr
    return stdout


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_byte_identical_across_jobs_and_caches(tree: Path, tmp_path: Path, fmt: str) -> None:
    reference = _out(_vtlint(tree, tmp_path / "none", "--format", fmt, "--no-cache", "--jobs", "1"))
    assert _out(_vtlint(tree, tmp_path / "none", "--format", fmt, "--no-cache", "--jobs", "2")) == reference
    cache = tmp_path / "cache"
    assert _out(_vtlint(tree, cache, "--format", fmt, "--jobs", "2")) == reference  # cold
    assert _out(_vtlint(tree, cache, "--format", fmt, "--jobs", "1")) == reference  # warm


def test_corrupt_and_truncated_cache_entries_are_rebuilt(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    reference = _out(_vtlint(tree, cache, "--format", "json", "--jobs", "1"))
    entries = sorted(p for p in cache.rglob("*") if p.is_file())
    assert entries
    for i, entry in enumerate(entries):  # truncate half, flip bytes in the other half
        data = entry.read_bytes()
        entry.write_bytes(data[: len(data) // 2] if i % 2 else data[:-8] + b"\xff" * 8)
    assert _out(_vtlint(tree, cache, "--format", "json", "--jobs", "1")) == reference
    rebuilt = sorted(p for p in cache.rglob("*") if p.is_file())
    assert all(p.read_bytes().startswith(b"VTLC") for p in rebuilt)
    assert not [p for p in rebuilt if p.name.startswith(".tmp-")]  # no torn temp files left
    assert _out(_vtlint(tree, cache, "--format", "json", "--jobs", "1")) == reference


def test_two_processes_on_one_tree_and_one_cache(tree: Path, tmp_path: Path) -> None:
    reference = _out(_vtlint(tree, tmp_path / "none", "--format", "json", "--no-cache"))
    cache = tmp_path / "shared"
    for _ in range(2):  # a cold race, then a warm one
        first = _vtlint(tree, cache, "--format", "json", "--jobs", "2")
        second = _vtlint(tree, cache, "--format", "json", "--jobs", "1")
        assert _out(first) == reference
        assert _out(second) == reference


def test_two_processes_writing_one_report(tree: Path, tmp_path: Path) -> None:
    """Both write the same --output: the file is always one whole report, never a mix."""
    out = tmp_path / "report.json"
    procs = [_vtlint(tree, tmp_path / "c", "--format", "json", "--no-cache", "-o", str(out)) for _ in range(2)]
    for proc in procs:
        _out(proc)
    reference = _out(_vtlint(tree, tmp_path / "c", "--format", "json", "--no-cache"))
    assert out.read_bytes() == reference
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".report.json")] == []
