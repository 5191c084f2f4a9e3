"""A hostile structured trace never kills the run (issue 16, item 5): deeply nested
JSON, a FIFO or a linked /dev/zero in the trace folder, and malformed `--probe`
records are each a runtime-fault note; the intact entries are still read. The folder
is read within a budget of bytes and entries, its problems kept to the first hundred
(issue 35, item 10)."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from vtlint.findings import Notification
from vtlint.runtime.probes import read_probes
from vtlint.runtime.structured_trace import parse_trace_dir

CAPTURED = Path(__file__).parents[1] / "runtime" / "data" / "examples" / "dedicated_log_torch_trace_fixture.log"
HEADER = "V1130 06:56:40.000000 1 torch/_logging/structured.py:28] "


@pytest.fixture
def trace(tmp_path: Path) -> Path:
    folder = tmp_path / "trace"
    folder.mkdir()
    shutil.copy(CAPTURED, folder / "dedicated_log_torch_trace_good.log")
    return folder


def _intact(folder: Path) -> int:
    return len(parse_trace_dir(folder, check_version=False).compiles)


@pytest.mark.parametrize("kind", ["deep_json_line", "fifo", "dev_zero", "deep_inline_record", "folder"])
def test_a_hostile_trace_is_a_problem_not_a_crash(trace: Path, kind: str) -> None:
    expected = _intact(trace)
    assert expected
    hostile = trace / "dedicated_log_torch_trace_hostile.log"
    if kind == "deep_json_line":
        hostile.write_text(HEADER + '{"dynamo_start": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    elif kind == "fifo":
        os.mkfifo(hostile)
    elif kind == "dev_zero":
        hostile.symlink_to("/dev/zero")
    elif kind == "folder":
        hostile.mkdir()
    else:
        (trace / "vtlint_inline_1.jsonl").write_text("[" * 100_000 + "]" * 100_000 + "\n")
    started = time.monotonic()
    facts = parse_trace_dir(trace, check_version=False)
    assert time.monotonic() - started < 30
    assert len(facts.compiles) == expected
    assert facts.problems, "the hostile part went unnoticed"


PROBES = {
    "missing_source": json.dumps({"file": "/x.py", "function": "f"}),
    "not_an_object": json.dumps([1, 2]),
    "wrong_types": json.dumps({"file": 3, "function": "f", "source": "L['n']"}),
    "deep": "[" * 100_000 + "]" * 100_000,
    "bad_failed": json.dumps({"file": "/x.py", "function": "f", "source": "L['n']", "failed": 7, "firstlineno": "x"}),
}


@pytest.mark.parametrize("name", sorted(PROBES))
def test_malformed_probe_records_are_notes(tmp_path: Path, name: str) -> None:
    (tmp_path / "vtlint_probes_1.jsonl").write_text(PROBES[name] + "\n")
    (tmp_path / "vtlint_probes_dir.jsonl").mkdir()  # IsADirectoryError before
    notes: list[Notification] = []
    probes = read_probes(tmp_path, tmp_path, notes)
    assert any("vtlint_probes_dir.jsonl: cannot read" in n.message for n in notes)
    if name != "bad_failed":
        assert probes == [] and any("damaged probe record" in n.message for n in notes)


@pytest.mark.parametrize("data", [b"[" * 100_000 + b"]" * 100_000, b"\xff\xfe", None])
def test_hostile_saved_facts_are_a_usage_error(run_cli, tmp_path: Path, data: bytes | None) -> None:
    (tmp_path / "good.py").write_text("x = 1\n")
    if data is None:
        os.mkfifo(tmp_path / "facts.json")
    else:
        (tmp_path / "facts.json").write_bytes(data)
    result = run_cli("check", ".", "--no-cache", "--runtime-facts", "facts.json", cwd=tmp_path)
    assert result.exit_code == 2 and "--runtime-facts" in result.stderr, result.output
    assert len(result.stderr.splitlines()) == 1


# issue 35, item 10: the trace folder read within a budget -----------------------

JUNK_HARNESS = """import os
folder = os.environ["TORCH_TRACE"]
for name in ("dedicated_log_torch_trace_junk.log", "vtlint_inline_junk.jsonl"):
    with open(os.path.join(folder, name), "w") as out:
        out.write("x\\n" * 10_000_000)
"""


def test_a_harness_flooding_the_trace_folder_costs_no_memory(tmp_path: Path) -> None:
    """10 M junk lines in a log and 10 M in an inline-record file (40 MB) cost 1.3 GB and 30 s: every
    line was kept as a problem. Now the folder is read within MAX_TRACE_ENTRIES, the first problems are
    kept and the rest counted: one note, under 200 MB, in seconds."""
    import subprocess
    import sys

    (tmp_path / "good.py").write_text("x = 1\n")
    (tmp_path / "h.py").write_text(JUNK_HARNESS)
    code = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.stderr.write(p.stdout + p.stderr)")
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "vtlint", "check", ".", "--no-cache",
                           "--runtime-command", f"{sys.executable} h.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert time.monotonic() - started < 120
    assert int(proc.stdout) < 200 * 1024, f"{int(proc.stdout) // 1024} MB"  # ru_maxrss: KB on Linux
    [note] = [line for line in proc.stderr.splitlines() if "the structured trace is damaged or cut off" in line]
    assert "the trace folder holds more than vtlint reads" in note and "more)" in note


def test_problems_are_kept_to_the_first_hundred_and_counted(trace: Path) -> None:
    from vtlint.runtime.structured_trace import MAX_PROBLEMS

    expected = _intact(trace)
    (trace / "dedicated_log_torch_trace_junk.log").write_text("junk\n" * 5000)
    facts = parse_trace_dir(trace, check_version=False)
    assert (len(facts.problems), facts.problems.total) == (MAX_PROBLEMS, 5000)
    assert len(facts.compiles) == expected


def test_the_folder_budget_stops_reading_and_says_so(trace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import vtlint.runtime.structured_trace as structured_trace

    monkeypatch.setattr(structured_trace, "MAX_TRACE_ENTRIES", 10)
    facts = parse_trace_dir(trace, check_version=False)
    assert facts.problems[0].startswith("the trace folder holds more than vtlint reads")
    assert len(facts.compiles) <= 10


# a code object's file, named by the trace: read bounded, and only inside the project ------

def test_the_files_a_trace_names_are_read_bounded(tmp_path: Path) -> None:
    """The files of compiled code objects were read with `Path.read_bytes` and linecache: a trace naming
    a FIFO hung the run, a link to /dev/zero read without end. Now each is a regular file of a source's
    size, and a line is shown only from a file of the project."""
    import threading

    from vtlint.bounded import MAX_SOURCE_BYTES
    from vtlint.runtime.events import FunctionDef, ProjectFiles

    root = tmp_path / "project"
    root.mkdir()
    (root / "ok.py").write_text("def f(x):\n    return g(x)\n")
    os.mkfifo(root / "fifo.py")
    with (root / "huge.py").open("wb") as sparse:
        sparse.truncate(MAX_SOURCE_BYTES + 1)
    (tmp_path / "outside.py").write_text("secret = 1\n")
    hostile = [str(root / "fifo.py"), str(root / "huge.py"), str(tmp_path / "outside.py")]
    if Path("/dev/zero").exists():
        (root / "zero.py").symlink_to("/dev/zero")
        hostile.append(str(root / "zero.py"))
    files = ProjectFiles(root)
    some = FunctionDef("f", "f", 1, 1, 2)
    read: list[object] = []
    reader = threading.Thread(daemon=True, target=lambda: read.extend(
        [files.line(name, 1) for name in hostile] + [files.functions(name) for name in hostile]
        + [files.free_vars(name, some) for name in hostile] + [files.called_names(name, 1) for name in hostile]))
    reader.start()
    reader.join(30)
    hung = reader.is_alive()
    if hung:
        os.close(os.open(root / "fifo.py", os.O_WRONLY | os.O_NONBLOCK))  # let the blocked reader go
    assert not hung, "a file the trace names blocked the run"
    assert read == [""] * len(hostile) + [[]] * len(hostile) + [None] * len(hostile) + [set()] * len(hostile)
    assert files.line(str(root / "ok.py"), 2) == "    return g(x)"
    assert files.called_names(str(root / "ok.py"), 2) == {"g"}
