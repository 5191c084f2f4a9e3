"""`vtlint check --runtime...` and `vtlint trace` end to end, with a stand-in harness (no torch)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

FAKE = Path(__file__).parent / "fake_harness.py"


@pytest.fixture
def replay_project(trace_fixture):
    """(project root, harness command replaying the captured examples trace)."""
    trace, root = trace_fixture("examples")
    log = next(trace.glob("*.log"))
    return root, lambda action="ok": shlex.join([sys.executable, str(FAKE), str(log), action])


@pytest.mark.parametrize(("args", "message"), [
    (["--probe"], "--probe needs a runtime step"),
    (["--runtime"], "no harness command"),
    (["--runtime", "--runtime-facts", "facts.json"], "cannot be combined"),
    (["--runtime-command", "true", "--runtime-timeout", "0"], "positive number of seconds"),
])
def test_runtime_usage_errors(run_cli, tmp_path, args, message):
    (tmp_path / "a.py").write_text("x = 1\n")
    result = run_cli("check", ".", *args, cwd=tmp_path)
    assert result.exit_code == 2
    assert message in result.output


def test_trace_then_check_with_saved_facts(run_cli, replay_project):
    root, command = replay_project
    traced = run_cli("trace", "--output", "facts.json", "--", *shlex.split(command()), cwd=root)
    assert traced.exit_code == 0, traced.output
    facts = json.loads((root / "facts.json").read_text())
    assert (facts["format"], facts["version"]) == ("vtlint-runtime-facts", 1)
    assert any(e["source"] == "L['n']" for e in facts["events"])
    checked = run_cli("check", "examples", "--runtime-facts", "facts.json", "--format", "json", "--exit-zero", cwd=root)
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.stdout)
    entries = {e["entry"]: e["compiles"] for e in report["runtime"]["entries"]}
    assert entries["seed.py:f"] == 3  # traced from the parent folder, rebased onto examples/'s root
    assert {f["evidence"] for f in report["findings"]} & {"confirmed", "runtime-only"}


def test_check_runtime_command_reports_a_failing_harness(run_cli, replay_project):
    root, command = replay_project
    result = run_cli("check", "examples", "--runtime-command", command("exit3"), "--exit-zero", cwd=root)
    assert result.exit_code == 0
    assert "exited with status 3" in result.output
    assert "Runtime: `" in result.output and "  seed.py:f: 3 compiles" in result.output


def test_trace_exit_status_follows_the_harness(run_cli, replay_project):
    root, command = replay_project
    result = run_cli("trace", "-o", "f.json", "--", *shlex.split(command("exit3")), cwd=root)
    assert result.exit_code == 1 and (root / "f.json").is_file()


def test_bad_facts_file_is_a_usage_error(run_cli, tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "facts.json").write_text('{"format": "something-else"}')
    result = run_cli("check", ".", "--runtime-facts", "facts.json", cwd=tmp_path)
    assert result.exit_code == 2 and "not a vtlint runtime facts file" in result.output
