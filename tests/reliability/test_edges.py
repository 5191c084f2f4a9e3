"""The smaller items of issue 35, item 11 (the command line's and the reports'; the
language server's and the analyzer's are tested beside them): a symlink leaving the
project, a fake torch inside it, a baseline of the wrong shape, terminal escapes in
file names, secrets by the shape of their value, stdout and stderr that cannot be
written, --jobs past the cores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reliability.corpus import GOOD


def test_a_symlink_leaving_the_project_is_not_read(run_cli, tmp_path: Path) -> None:
    """`pw.py -> /etc/passwd` was read and reported as `../../../etc/passwd` (a syntax error in it)."""
    outside = tmp_path / "outside" / "secret.py"
    outside.parent.mkdir()
    outside.write_text("password = 'hunter2'\nthis is not python\n")
    root = tmp_path / "project"
    root.mkdir()
    (root / "good.py").write_bytes(GOOD)
    (root / "pw.py").symlink_to(outside)
    (root / "inside.py").symlink_to(root / "good.py")  # a link within the project is followed
    result = run_cli("check", ".", "--no-cache", "--format", "json", cwd=root)
    assert result.exit_code == 1
    assert "secret" not in result.stdout and "hunter2" not in result.stdout and "../" not in result.stdout
    assert "warning: pw.py: a symlink to a file outside the project, not read" in result.stderr
    assert '"files_analyzed": 1' in result.stdout  # good.py, once (inside.py is the same file)


def test_a_fake_torch_in_the_tree_is_used_by_neither_check_dot_nor_check_file(run_cli, tmp_path: Path) -> None:
    """`torch/nn/modules/linear.py` in the scanned folder stood in for torch.nn.Linear in `check .` (a graph
    break in it, "2 compiled entries") but not in `check model.py`; torch is the installed one in both."""
    (tmp_path / "model.py").write_text(FAKE_TORCH_MODEL)
    fake = tmp_path / "torch" / "nn" / "modules"
    fake.mkdir(parents=True)
    for folder in (tmp_path / "torch", tmp_path / "torch" / "nn", fake):
        (folder / "__init__.py").write_text("")
    (fake / "linear.py").write_text(FAKE_LINEAR)
    whole = json.loads(run_cli("check", ".", "--no-cache", "--format", "json", cwd=tmp_path).stdout)
    alone = json.loads(run_cli("check", "model.py", "--no-cache", "--format", "json", cwd=tmp_path).stdout)
    assert whole["entries"] == alone["entries"] and len(alone["entries"]) == 1
    assert whole["findings"] == alone["findings"] == []


FAKE_TORCH_MODEL = """import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)

    def forward(self, x):
        return self.lin(x)


torch.compile(M())(torch.ones(2))
"""
FAKE_LINEAR = """import torch


class Linear(torch.nn.Module):
    def __init__(self, a, b):
        super().__init__()

    def forward(self, x):
        print(x)
        return x
"""


def test_a_baseline_whose_results_are_not_a_list_is_refused(run_cli, tmp_path: Path) -> None:
    """`results: 5` was silently an empty baseline (every finding reported); `merge` refuses it."""
    (tmp_path / "good.py").write_bytes(GOOD)
    assert run_cli("check", ".", "--no-cache", "--write-baseline", "base.sarif", cwd=tmp_path).exit_code == 1
    log = json.loads((tmp_path / "base.sarif").read_text())
    log["runs"][0]["results"] = 5
    (tmp_path / "base.sarif").write_text(json.dumps(log))
    for args in (["check", ".", "--no-cache", "--baseline", "base.sarif"], ["merge", "base.sarif"]):
        result = run_cli(*args, cwd=tmp_path)
        assert result.exit_code == 2 and "at /runs/0/results: 5 is not of type 'array'" in result.stderr, result.output


ESCAPES = "x\x1b]0;pwned\x07\x1b[2J\u202e.py"  # retitle the terminal, clear it, reverse what follows
SHOWN = "x\\x1b]0;pwned\\x07\\x1b[2J\\u202e.py"


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_terminal_escapes_in_a_file_name_are_shown_escaped(tmp_path: Path, fmt: str) -> None:
    """They were printed raw in text and `--format github` (GitHub's log is a terminal too); JSON and
    SARIF carry the name exactly, escaped as their format escapes it."""
    (tmp_path / ESCAPES).write_bytes(GOOD)
    (tmp_path / "bad\x1b[31m.py").write_bytes(b"def f(:\n")
    proc = _vtlint(tmp_path, "check", ".", "--no-cache", "--format", fmt, "--show-notes")
    assert proc.returncode == 1, proc.stderr
    for stream in (proc.stdout, proc.stderr):
        assert "\x1b" not in stream and "\x07" not in stream and "\u202e" not in stream
    assert SHOWN in proc.stdout and "bad\\x1b[31m.py" in proc.stdout
    exact = json.loads(_vtlint(tmp_path, "check", ".", "--no-cache", "--format", "json").stdout)
    assert {f["path"] for f in exact["findings"]} == {ESCAPES, "bad\x1b[31m.py"}


def test_a_newline_in_a_file_name_cannot_forge_a_finding_line(tmp_path: Path) -> None:
    (tmp_path / "a.py\nevil.py:1:1: VTL999 forged.py").write_bytes(GOOD)
    proc = _vtlint(tmp_path, "check", ".", "--no-cache")
    assert not any(line.startswith("evil.py") for line in proc.stdout.splitlines()), proc.stdout
    assert "a.py\\nevil.py:1:1: VTL999 forged.py:6:5: VTL202" in proc.stdout


def test_markup_in_a_file_name_is_printed_as_is(tmp_path: Path) -> None:
    """Rich read `[red]` in a path on stderr as its markup, and dropped it from the name it printed."""
    (tmp_path / "[red]x.py").symlink_to(tmp_path / "nowhere.py")  # a broken link: a notification naming it
    (tmp_path / "good.py").write_bytes(GOOD)
    proc = _vtlint(tmp_path, "check", ".", "--no-cache")
    assert proc.returncode == 1 and "[red]x.py: broken symlink" in proc.stderr, proc.stderr


def test_secrets_are_redacted_by_the_shape_of_their_value(tmp_path: Path) -> None:
    """A harness printing its database URL put the password into the SARIF log (only variables named
    like TOKEN or SECRET were redacted); now URLs' passwords and long tokens are, from output and command."""
    (tmp_path / "good.py").write_bytes(GOOD)
    (tmp_path / "h.py").write_text("import sys\nprint('connecting to postgres://app:s3cr3t-pw@db.internal:5432/prod')\n"
                                   "print('using ghp_ABCDEFGHIJKLMNOPQRSTUVWXyz0123456789')\n"
                                   "print('session Zm9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZmdo')\nsys.exit(3)\n")
    proc = _vtlint(tmp_path, "check", ".", "--no-cache", "--format", "sarif", "--runtime-command",
                   "python h.py --dsn postgres://app:s3cr3t-pw@db.internal/prod")
    assert proc.returncode == 1, proc.stderr
    for secret in ("s3cr3t-pw", "ghp_ABCDEFGHIJKLMNOPQRSTUVWXyz0123456789", "Zm9vYmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZmdo"):
        assert secret not in proc.stdout, secret
    assert "postgres://app:<redacted>@db.internal:5432/prod" in proc.stdout  # the rest stays readable
    assert "exited with status 3" in proc.stdout


def test_help_and_version_into_a_full_stdout_are_one_line_exit_2(tmp_path: Path) -> None:
    """`vtlint --help > /dev/full` was a Click traceback, exit 1."""
    for args in (["--help"], ["--version"], ["check", "--help"]):
        with open("/dev/full", "w") as full:
            proc = subprocess.run([sys.executable, "-m", "vtlint", *args], cwd=tmp_path, stdout=full,
                                  stderr=subprocess.PIPE, text=True, timeout=60)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.splitlines() == ["vtlint: error: cannot write to standard output: No space left on device"]


def test_an_unwritable_stderr_keeps_the_exit_code(tmp_path: Path) -> None:
    """`vtlint nosuchfile.py 2>/dev/full` exited 1 (the code for findings); it is 2, as with a stderr."""
    (tmp_path / "good.py").write_bytes(GOOD)
    for args, code in ((["nosuchfile.py"], 2), (["good.py"], 1), (["good.py", "--exit-zero"], 0)):
        with open("/dev/full", "w") as full:
            proc = subprocess.run([sys.executable, "-m", "vtlint", *args, "--no-cache"], cwd=tmp_path,
                                  stdout=subprocess.PIPE, stderr=full, text=True, timeout=60)
        assert proc.returncode == code, args


def test_jobs_past_the_cores_start_one_worker_per_core(run_cli, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """`-j 64` started 64 workers on 2 cores."""
    import concurrent.futures

    import vtlint.analyzer.project as project_module

    started: list[int] = []

    class Pool(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, workers: int, **kwargs) -> None:
            started.append(workers)
            super().__init__(workers, **kwargs)

    monkeypatch.setattr(project_module, "ProcessPoolExecutor", Pool)
    for i in range(12):  # more than 8 files to summarize: the pool is used
        (tmp_path / f"m{i}.py").write_text(f"x = {i}\n")
    assert run_cli("check", ".", "--no-cache", "-j", "64", cwd=tmp_path).exit_code == 0
    assert started == [len(os.sched_getaffinity(0))]


def _vtlint(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "vtlint", *args], cwd=root, capture_output=True, text=True,
                          timeout=120, env=env)


@pytest.mark.parametrize("kind", ["fifo", "deep", "wrong_types"])
def test_a_damaged_torch_registry_leaves_it_out_of_the_sarif_help(run_cli, tmp_path: Path, kind: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The installed torch's graph_break_registry.json is read as every file is (it was read whole, and a
    damaged one was a traceback while writing SARIF): bounded, typed, left out when damaged."""
    import importlib.machinery

    from vtlint.report import sarif

    registry = tmp_path / "torch" / "_dynamo" / "graph_break_registry.json"
    registry.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(registry)
    else:
        registry.write_text("[" * 100_000 if kind == "deep" else json.dumps({"GB0059": [{"Gb_type": 5}]}))
    spec = importlib.machinery.ModuleSpec("torch", None, is_package=True)
    spec.submodule_search_locations = [str(registry.parent.parent)]
    monkeypatch.setattr(sarif, "find_spec", lambda name: spec)
    sarif._registry.cache_clear()
    (tmp_path / "good.py").write_bytes(GOOD)
    try:
        result = run_cli("check", "good.py", "--no-cache", "--format", "sarif", cwd=tmp_path)
    finally:
        sarif._registry.cache_clear()
    assert result.exit_code == 1 and "Hints from the registry" not in result.stdout, result.output
    assert json.loads(result.stdout)["runs"][0]["results"]
