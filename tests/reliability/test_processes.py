"""Harness processes never outlive the run, and temp folders never stay behind:
a child left in the harness's process group after a normal exit is stopped,
and so is the whole group when vtlint receives SIGTERM or SIGINT. Also what
the runtime step says about its timeout and about where the harness runs.
Fake harnesses in Python, no torch; each case takes seconds."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from vtlint.runtime import harness
from vtlint.runtime.step import run_step

# Writes its own pid and a sleeping child's pid (same process group), then obeys argv[1].
FAKE_HARNESS = textwrap.dedent("""\
    import os, signal, subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    with open("pids.txt", "w") as handle:
        handle.write(f"{os.getpid()} {child.pid}")
    if sys.argv[1] == "hang":
        time.sleep(120)
    if sys.argv[1] == "ignore-term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(120)
""")


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with the fake harness, and a private temp dir so leftovers show."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "harness.py").write_text(FAKE_HARNESS, encoding="utf-8")
    (project / "a.py").write_text("x = 1\n", encoding="utf-8")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    return project


def _command(action: str) -> str:
    return shlex.join([sys.executable, "harness.py", action])


def _pids(root: Path) -> list[int]:
    return [int(p) for p in (root / "pids.txt").read_text().split()]


def _gone(pid: int, within: float = 5.0) -> bool:
    """Killed and reaped (an orphan is reaped by init shortly after it dies)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)  # do not leave it to the next test
    return False


def test_a_child_left_by_a_harness_that_exits_is_stopped(root: Path) -> None:
    facts = run_step(_command("exit"), root, timeout=60)
    assert facts.harness["exit_code"] == 0
    harness_pid, child_pid = _pids(root)
    assert _gone(child_pid), "the harness's child outlived the run"
    assert os.listdir(tempfile.tempdir) == []


def test_timeout_is_reported_as_the_limit_not_the_time_with_grace(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A harness that ignores SIGTERM runs on through the grace period: the fault
    still names the limit the user set (it said 'within 9 s' for --runtime-timeout 4)."""
    monkeypatch.setattr(harness, "GRACE_S", 1.0)
    facts = run_step(_command("ignore-term"), root, timeout=1.5)
    faults = [n.message for n in facts.notifications if n.kind == "runtime-fault"]
    assert any("did not finish within 1.5 s" in f for f in faults), faults
    assert facts.harness["duration_s"] >= 2.5  # the grace period did pass
    assert all(_gone(pid) for pid in _pids(root))


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_vtlint_stopped_while_the_harness_runs_leaves_nothing_behind(root: Path, signum: int, code: int) -> None:
    scratch = Path(tempfile.tempdir)
    vtlint = subprocess.Popen(
        [sys.executable, "-m", "vtlint", "check", "a.py", "--no-cache", "--runtime-command", _command("hang")],
        cwd=root, env={**os.environ, "TMPDIR": str(scratch)}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # a background shell ignores SIGINT
    try:
        deadline = time.monotonic() + 30
        while not (root / "pids.txt").is_file() or len(_pids(root)) < 2:
            assert time.monotonic() < deadline and vtlint.poll() is None, "the harness never started"
            time.sleep(0.05)
        assert [p.name for p in scratch.iterdir()][0].startswith("vtlint-runtime-")
        vtlint.send_signal(signum)
        _, stderr = vtlint.communicate(timeout=20)
    finally:
        if vtlint.poll() is None:
            vtlint.kill()
    assert vtlint.returncode == code, stderr
    assert all(_gone(pid) for pid in _pids(root)), "the harness or its child outlived vtlint"
    assert os.listdir(scratch) == []


def test_a_parent_folders_command_says_whose_it_is_and_where_it_runs(
        root: Path, run_cli) -> None:
    (root / "pyproject.toml").write_text(f"[tool.vtlint.runtime]\ncommand = {_command('exit')!r}\n", encoding="utf-8")
    sub = root / "sub"
    sub.mkdir()
    (sub / "b.py").write_text("y = 2\n", encoding="utf-8")
    result = run_cli("check", "b.py", "--no-cache", "--runtime", cwd=sub)
    assert (root / "pids.txt").is_file()  # it did run, in the parent folder
    lines = [line for line in result.stderr.splitlines() if line.startswith("vtlint: running")]
    assert lines == [f"vtlint: running `{_command('exit')}` from [tool.vtlint.runtime] of ../pyproject.toml, in .."]


def test_a_local_command_runs_without_a_word(root: Path, run_cli) -> None:
    (root / "pyproject.toml").write_text(f"[tool.vtlint.runtime]\ncommand = {_command('exit')!r}\n", encoding="utf-8")
    result = run_cli("check", "a.py", "--no-cache", "--runtime", cwd=root)
    assert (root / "pids.txt").is_file()
    assert "vtlint: running" not in result.stderr


def test_a_given_command_run_in_a_parent_root_says_where(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vtlint.runtime.cli_support import RuntimeRequest, where_it_runs

    (root / "sub").mkdir()
    monkeypatch.chdir(root / "sub")
    given = RuntimeRequest("python t.py", None, 60.0, False)
    assert where_it_runs(given, root) == "vtlint: running `python t.py` in the project root .."
    assert where_it_runs(given, root / "sub") is None
