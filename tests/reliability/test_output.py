"""Where reports go (issue 16, items 2, 4 and 11): `--output` never destroys a
file -- not an input of the run, not a device, FIFO or symlink -- and keeps the
umask and an existing report's mode; a file name that is not UTF-8 is reported in
every format; exit codes are 0/1/2 as documented, 130 on Ctrl-C, and 2 with one
line when stdout cannot be written."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from reliability.corpus import GOOD
from reliability.test_limits import _big_data_module, _pathological_entry


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "good.py").write_bytes(GOOD)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _vtlint(root: Path, *args: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vtlint", *args], cwd=root, capture_output=True, text=True,
                          timeout=120, **kwargs)


# item 2: --output ---------------------------------------------------------------

def test_output_onto_the_analyzed_source_is_refused(run_cli, root: Path) -> None:
    result = run_cli("check", "good.py", "--no-cache", "--format", "json", "-o", "good.py")
    assert result.exit_code == 2
    assert "cannot write good.py: it is an input of this run" in result.stderr
    assert (root / "good.py").read_bytes() == GOOD


def test_output_onto_the_baseline_or_a_merged_log_is_refused(run_cli, root: Path) -> None:
    assert run_cli("check", ".", "--no-cache", "--write-baseline", "base.sarif").exit_code == 1
    before = (root / "base.sarif").read_bytes()
    result = run_cli("check", ".", "--no-cache", "--format", "sarif", "--baseline", "base.sarif", "-o", "base.sarif")
    assert result.exit_code == 2 and "cannot write base.sarif: it is an input" in result.stderr
    (root / "link.sarif").symlink_to("base.sarif")  # the same file by another name
    merged = run_cli("merge", "base.sarif", "-o", "link.sarif")
    assert merged.exit_code == 2 and "cannot write link.sarif: it is an input" in merged.stderr
    assert (root / "base.sarif").read_bytes() == before


def test_output_through_a_symlink_writes_its_target(run_cli, root: Path) -> None:
    (root / "reports").mkdir()
    (root / "reports" / "real.json").write_text("old")
    (root / "latest.json").symlink_to("reports/real.json")
    assert run_cli("check", ".", "--no-cache", "--format", "json", "-o", "latest.json").exit_code == 1
    assert (root / "latest.json").is_symlink()
    assert json.loads((root / "reports" / "real.json").read_text())["findings"]


def test_output_into_a_fifo_is_written_through(run_cli, root: Path) -> None:
    fifo = root / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    result = run_cli("check", ".", "--no-cache", "--format", "json", "-o", "pipe")
    reader.join(30)
    assert result.exit_code == 1
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert json.loads(received[0])["findings"]


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_output_onto_a_device_keeps_the_device(run_cli, root: Path) -> None:
    """`-o /dev/null` as root used to replace the device with a regular file (a copy of /dev/null here)."""
    node = root / "null"
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    assert run_cli("check", ".", "--no-cache", "--format", "sarif", "-o", "null").exit_code == 1
    assert stat.S_ISCHR(node.lstat().st_mode)


def test_output_to_a_full_device_is_exit_2_naming_it(run_cli, root: Path) -> None:
    result = run_cli("check", ".", "--no-cache", "--format", "json", "-o", "/dev/full")
    assert result.exit_code == 2 and "cannot write /dev/full: No space left on device" in result.stderr
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_new_report_follows_the_umask_and_an_old_one_keeps_its_mode(run_cli, root: Path) -> None:
    old = os.umask(0o027)
    try:
        assert run_cli("check", ".", "--no-cache", "--format", "json", "-o", "new.json").exit_code == 1
        assert stat.S_IMODE((root / "new.json").stat().st_mode) == 0o640
        (root / "shared.json").write_text("old")
        os.chmod(root / "shared.json", 0o664)
        assert run_cli("check", ".", "--no-cache", "--format", "json", "-o", "shared.json").exit_code == 1
        assert stat.S_IMODE((root / "shared.json").stat().st_mode) == 0o664
    finally:
        os.umask(old)
    assert not [p for p in root.iterdir() if p.name.endswith(".tmp")]


def test_trace_output_onto_an_input_is_refused_before_the_harness_runs(run_cli, root: Path) -> None:
    """Issue 35, item 7: `trace -o harness.py -- python harness.py` and `trace -o pyproject.toml`
    replaced the script and the config with facts JSON, exit 0."""
    (root / "harness.py").write_text("open('RAN', 'w').close()\n")
    (root / "pyproject.toml").write_text("[tool.vtlint]\n")
    (root / "link.py").symlink_to("good.py")
    for target in ("harness.py", "pyproject.toml", "good.py", "link.py"):  # the script, the config, a source
        before = (root / target).read_bytes()
        result = run_cli("trace", "-o", target, "--", "python", "harness.py")
        assert result.exit_code == 2, result.output
        assert f"cannot write {target}: it is an input of this run" in result.stderr
        assert (root / target).read_bytes() == before and not (root / "RAN").exists()
    assert run_cli("trace", "-o", "facts.json", "--", sys.executable, "harness.py").exit_code == 0
    assert (root / "RAN").exists() and json.loads((root / "facts.json").read_text())["format"]


# item 4: undecodable file names -------------------------------------------------

@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_a_file_name_that_is_not_utf8_is_reported_in_every_format(tmp_path: Path, fmt: str) -> None:
    (tmp_path / os.fsdecode(b"bad\xff.py")).write_bytes(GOOD)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}  # strict, as in a UTF-8 locale
    for target in ([], ["-o", "report.out"]):
        proc = _vtlint(tmp_path, "check", ".", "--no-cache", "--format", fmt, *target, env=env)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        text = (tmp_path / "report.out").read_text(encoding="utf-8") if target else proc.stdout
        assert "bad\ufffd.py" in text or "bad%FF.py" in text
        if fmt == "json":
            assert json.loads(text)["findings"][0]["path"] == "bad\ufffd.py"
        if fmt == "sarif":
            (result,) = json.loads(text)["runs"][0]["results"]
            assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bad%FF.py"


# item 11: exit codes ----------------------------------------------------------

def test_a_full_stdout_is_exit_2_with_one_line(root: Path) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "vtlint", "check", ".", "--no-cache"], cwd=root, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == ["vtlint: error: cannot write to standard output: No space left on device"]


def test_a_closed_stdout_pipe_is_quiet_and_exit_141(root: Path) -> None:
    """Issue 35, item 11: `vtlint check . | head -3` printed "cannot write to standard output: Broken
    pipe". The reader went away on purpose: nothing to say, and 141 (128 + SIGPIPE) as a shell says it."""
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "vtlint", "check", ".", "--no-cache", "--format", "json"],
                              cwd=root, stdout=write, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert (proc.returncode, proc.stderr) == (141, "")


def test_check_piped_into_head_is_quiet(root: Path) -> None:
    for i in range(250):  # 80 KB of findings: more than a pipe holds (64 KB), so the write fails
        (root / f"m{i}.py").write_bytes(GOOD)
    proc = subprocess.run(f"{sys.executable} -m vtlint check . --no-cache | head -3", shell=True, cwd=root,
                          capture_output=True, text=True, timeout=120)
    assert len(proc.stdout.splitlines()) == 3 and proc.stderr == "", proc.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_exits_130_without_a_traceback(tmp_path: Path, jobs: str) -> None:
    """The terminal sends SIGINT to the whole foreground group: vtlint and its workers."""
    (tmp_path / "slow.py").write_text(_pathological_entry(200))
    for i in range(12):
        (tmp_path / f"big_{i}.py").write_text(_big_data_module(60_000))
    proc = subprocess.Popen([sys.executable, "-m", "vtlint", "check", ".", "--no-cache", "--jobs", jobs],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,  # a background shell ignores SIGINT: the terminal's default
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(4)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.splitlines() == ["vtlint: interrupted"]
