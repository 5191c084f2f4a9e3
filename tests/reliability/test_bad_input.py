"""Bad input never crashes a run: a located finding (or a notification) for the
bad file, every other file still analyzed, the documented exit code, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from reliability.corpus import CASES, GOOD, GOOD_LINE, Case
from vtlint.analyzer.files import SourceFile, read_source
from vtlint.check import run_check
from vtlint.config import load_config


def _tree(root: Path, files: dict[str, bytes]) -> Path:
    for rel, data in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return root


def _report(result) -> dict:
    assert "Traceback" not in result.output, result.output
    return json.loads(result.stdout)


def _good_survives(report: dict) -> None:
    assert any(f["path"] == "good.py" and f["code"] == "VTL202" and f["line"] == GOOD_LINE for f in report["findings"])


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_file_is_located_and_the_rest_still_analyzed(run_cli, tmp_path: Path, case: Case) -> None:
    root = _tree(tmp_path, {"good.py": GOOD, f"{case.name}.py": case.data})
    result = run_cli("check", ".", "--no-cache", "--format", "json", cwd=root)
    assert result.exit_code == 1, result.output
    report = _report(result)
    _good_survives(report)
    assert report["files_analyzed"] == 2
    mine = [f for f in report["findings"] if f["path"] == f"{case.name}.py" and f["code"].startswith("VTL0")]
    if case.code is None:
        assert mine == []
        return
    (finding,) = mine
    assert finding["code"] == case.code
    assert finding["line"] == case.line, finding
    assert case.words.lower() in finding["message"].lower()


def test_all_bad_files_at_once_in_a_real_process(tmp_path: Path) -> None:
    """The whole corpus in one tree, through `python -m vtlint` (no CliRunner in between)."""
    root = _tree(tmp_path, {"good.py": GOOD, **{f"bad/{c.name}.py": c.data for c in CASES}})
    proc = subprocess.run([sys.executable, "-m", "vtlint", "check", ".", "--no-cache", "--format", "json", "--jobs", "2"],
                          cwd=root, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    report = json.loads(proc.stdout)
    _good_survives(report)
    assert report["files_analyzed"] == len(CASES) + 1
    flagged = {f["path"] for f in report["findings"] if f["code"] in ("VTL001", "VTL002")}
    assert flagged == {f"bad/{c.name}.py" for c in CASES if c.code is not None}


@pytest.mark.parametrize("newline", [b"\r\n", b"\r", b"mixed"])
def test_line_endings_keep_lines_and_columns(run_cli, tmp_path: Path, newline: bytes) -> None:
    """CRLF, old-Mac CR and a mix: Python counts each as one line break, so must vtlint."""
    lines = GOOD.split(b"\n")
    if newline == b"mixed":
        data = b"".join(line + (b"\r\n", b"\n", b"\r")[i % 3] for i, line in enumerate(lines))
    else:
        data = newline.join(lines)
    root = _tree(tmp_path, {"good.py": data})
    report = _report(run_cli("check", ".", "--no-cache", "--format", "json", cwd=root))
    (finding,) = [f for f in report["findings"] if f["code"] == "VTL202"]
    assert (finding["line"], finding["column"]) == (GOOD_LINE, 5)


def test_symlink_loops_and_dangling_links_are_notifications(run_cli, tmp_path: Path) -> None:
    root = _tree(tmp_path, {"good.py": GOOD})
    (root / "loop_a.py").symlink_to("loop_b.py")
    (root / "loop_b.py").symlink_to("loop_a.py")
    (root / "dangling.py").symlink_to(tmp_path / "nowhere" / "x.py")
    (root / "pkg").mkdir()
    (root / "pkg" / "up").symlink_to("..")  # a directory loop: os.walk must not follow it
    result = run_cli("check", ".", "--no-cache", "--format", "json", cwd=root)
    assert result.exit_code == 1
    report = _report(result)
    _good_survives(report)
    assert report["files_analyzed"] == 1
    messages = sorted(n["message"] for n in report["notifications"])
    assert any(m.startswith("dangling.py: broken symlink") for m in messages), messages
    assert any(m.startswith("loop_a.py: broken symlink") for m in messages), messages


def test_a_symlink_loop_named_on_the_command_line(run_cli, tmp_path: Path) -> None:
    """Regression: Path.resolve() raised RuntimeError on a loop (config discovery and display paths)."""
    root = _tree(tmp_path, {"good.py": GOOD})
    (root / "loop_a.py").symlink_to("loop_b.py")
    (root / "loop_b.py").symlink_to("loop_a.py")
    result = run_cli("check", "loop_a.py", "good.py", "--no-cache", "--format", "json", cwd=root)
    assert result.exit_code == 1, result.output
    _good_survives(_report(result))
    assert "loop_a.py" in result.stderr


def test_missing_paths_and_empty_directories(run_cli, tmp_path: Path) -> None:
    root = _tree(tmp_path, {"good.py": GOOD})
    (root / "empty").mkdir()
    result = run_cli("check", "good.py", "empty", "nothere.py", "--no-cache", "--format", "json", cwd=root)
    assert result.exit_code == 2  # a missing path is a usage error, the rest is still reported
    _good_survives(_report(result))
    assert "nothere.py: no such file or directory" in result.stderr
    only_empty = run_cli("check", "empty", "--no-cache", cwd=root)
    assert only_empty.exit_code == 2 and "no Python files" in only_empty.output  # not an all-clear


def test_file_deleted_between_discovery_and_reading(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import vtlint.check as check_module
    from vtlint.analyzer import files as files_module

    root = _tree(tmp_path, {"good.py": GOOD, "doomed.py": b"x = 1\n"})
    real = files_module.discover

    def discover_then_delete(paths, config):
        found = real(paths, config)
        (root / "doomed.py").unlink()
        return found

    monkeypatch.setattr(check_module, "discover", discover_then_delete)
    report = _report(run_cli("check", ".", "--no-cache", "--format", "json", cwd=root))
    _good_survives(report)
    (gone,) = [f for f in report["findings"] if f["path"] == "doomed.py"]
    assert gone["code"] == "VTL002" and "No such file" in gone["message"]


def test_unreadable_file_is_located(tmp_path: Path, unreadable: Callable[[str], None]) -> None:
    root = _tree(tmp_path, {"good.py": GOOD, "secret.py": b"x = 1\n"})
    unreadable("secret.py")
    result = run_check([root], load_config([root]), use_cache=False)
    (finding,) = [f for f in result.findings if f.location.path == "secret.py"]
    assert finding.code == "VTL002" and "Permission denied" in finding.message
    assert any(f.location.path == "good.py" for f in result.findings)


def test_malformed_tool_vtlint_table(run_cli, tmp_path: Path) -> None:
    root = _tree(tmp_path, {"good.py": GOOD})
    for text, words in [
        ("[tool.vtlint]\nselect = 3\n", "select"),
        ("[tool.vtlint\nselect = []\n", "pyproject.toml"),
        ("[tool]\nvtlint = 1\n", "must be a table"),
        ("[tool.vtlint]\nno-such-key = 1\n", "no-such-key"),
    ]:
        (root / "pyproject.toml").write_text(text)
        result = run_cli("check", ".", "--no-cache", cwd=root)
        assert result.exit_code == 2, (text, result.output)
        assert words in result.stderr and "Traceback" not in result.output


def test_ten_megabyte_file_is_analyzed(tmp_path: Path) -> None:
    """10 MB of embedded data (the shape generated modules have) before real code; a
    10 MB module of code is measured in benchmarks/limits (minutes on 2 cores)."""
    blob_lines = 101_000
    body = b'BLOB = """\n' + (b"x" * 99 + b"\n") * blob_lines + b'"""\n\n\n' + GOOD
    assert len(body) > 10_000_000
    root = _tree(tmp_path, {"good.py": GOOD, "huge.py": body})
    result = run_check([root], load_config([root]), use_cache=False)
    assert result.files == ["good.py", "huge.py"]
    breaks = {(f.location.path, f.location.line) for f in result.findings if f.code == "VTL202"}
    assert breaks == {("good.py", GOOD_LINE), ("huge.py", blob_lines + 4 + GOOD_LINE)}


def test_read_source_never_raises_anything_but_source_error(tmp_path: Path) -> None:
    from vtlint.analyzer.files import SourceError

    for case in CASES:
        path = tmp_path / f"{case.name}.py"
        path.write_bytes(case.data)
        try:
            read_source(SourceFile(path, path.name))
        except SourceError as exc:
            assert exc.location.path == path.name and exc.location.line >= 1



def test_a_huge_sparse_file_is_not_read(tmp_path: Path) -> None:
    """Issue 16, item 9: a 1 GB sparse `.py` took 38 s and 6.3 GB of memory."""
    import resource

    root = _tree(tmp_path, {"good.py": GOOD})
    with open(root / "huge.py", "wb") as handle:
        handle.truncate(1 << 30)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    result = run_check([root], load_config([root]), use_cache=False)
    assert time.monotonic() - started < 20
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200 * 1024  # KiB
    (finding,) = [f for f in result.findings if f.location.path == "huge.py"]
    assert finding.code == "VTL002" and "file too large (1,024 MiB" in finding.message
    assert any(f.location.path == "good.py" for f in result.findings)


@pytest.mark.parametrize("kind", ["fifo", "device_link"])
def test_a_fifo_or_a_link_to_a_device_is_named_for_what_it_is(run_cli, tmp_path: Path, kind: str) -> None:
    """Issue 16, item 14: a symlink to a device was called "broken"; a FIFO must never hang the run."""
    root = _tree(tmp_path, {"good.py": GOOD, "pyproject.toml": b"[tool.vtlint]\n"})  # the root, wherever links lead
    if kind == "fifo":
        os.mkfifo(root / "pipe.py")
    else:
        (root / "pipe.py").symlink_to("/dev/zero")
    shown = "a FIFO" if kind == "fifo" else "a character device"
    for target in (".", "pipe.py"):
        result = run_cli("check", "good.py", target, "--no-cache", "--format", "json", cwd=root)
        report = _report(result)
        _good_survives(report)
        messages = [n["message"] for n in report["notifications"]]
        assert any(m.startswith("pipe.py: not a file or directory") and shown in m for m in messages), messages


def test_a_file_turned_into_a_fifo_after_discovery_is_unreadable_not_a_hang(tmp_path: Path) -> None:
    from vtlint.analyzer.files import SourceError

    os.mkfifo(tmp_path / "late.py")
    with pytest.raises(SourceError, match="not a regular file \\(a FIFO\\)"):
        read_source(SourceFile(tmp_path / "late.py", "late.py"))


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="PEP 695 syntax is valid from Python 3.12")
def test_syntax_newer_than_the_running_python_is_a_syntax_error(run_cli, tmp_path: Path) -> None:
    """LibCST parses `type Pair = ...` (3.12), but the Python that runs this code cannot: VTL001."""
    root = _tree(tmp_path, {"good.py": GOOD, "newer.py": b"x = 1\ntype Pair = tuple[int, int]\n"})
    report = _report(run_cli("check", ".", "--no-cache", "--format", "json", cwd=root))
    _good_survives(report)
    (finding,) = [f for f in report["findings"] if f["path"] == "newer.py"]
    assert (finding["code"], finding["line"]) == ("VTL001", 2)
    assert f"(Python {sys.version_info[0]}.{sys.version_info[1]})" in finding["message"]
