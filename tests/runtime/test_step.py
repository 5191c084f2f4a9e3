"""The runtime step without torch: a stand-in harness replays a captured trace
and then fails in every way a real one can; nothing traced is lost."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from trace_data import relocate_log

from vtlint.findings import Evidence, Level, Location
from vtlint.report.merge import merge
from vtlint.runtime.step import FACTS_VERSION, FactsError, RuntimeFacts, facts_from_trace, run_step
from vtlint.runtime.summary import coverage_lines
from vtlint.trace import Action, Event

FAKE = Path(__file__).parent / "fake_harness.py"


@pytest.fixture
def replay(trace_fixture, tmp_path, monkeypatch):
    """run(action, timeout) -> RuntimeFacts, with private temp dirs observable."""
    trace, root = trace_fixture("examples")
    log = next(trace.glob("*.log"))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))

    def run(action: str, timeout: float = 60.0, **env: str) -> RuntimeFacts:
        monkeypatch.setattr(os, "environ", {**os.environ, **env})
        return run_step([sys.executable, str(FAKE), str(log), action], root, timeout=timeout)

    run.scratch = scratch  # type: ignore[attr-defined]
    return run


def _faults(facts: RuntimeFacts) -> list[str]:
    return [n.message for n in facts.notifications if n.kind == "runtime-fault"]


def _sources(facts: RuntimeFacts) -> set[str | None]:
    return {e.source for e in facts.events if e.action is Action.WRAP}


def test_ok_run_has_events_coverage_and_no_fault(replay):
    facts = replay("ok")
    assert _faults(facts) == []
    assert {"L['n']", "L['cfg'].scale", "L['self'].step"} <= _sources(facts)
    assert facts.coverage["examples/seed.py:f"].compiles == 3
    assert facts.harness["exit_code"] == 0
    assert os.listdir(replay.scratch) == []  # the private trace directory is gone


def test_nonzero_exit_keeps_the_facts(replay):
    facts = replay("exit3")
    (fault,) = _faults(facts)
    assert "exited with status 3" in fault and "harness output line" in fault
    assert facts.notifications[0].level is Level.ERROR
    assert "L['n']" in _sources(facts)


def test_segfault_is_named(replay):
    facts = replay("segv")
    assert any("killed by SIGSEGV" in f for f in _faults(facts))
    assert "L['n']" in _sources(facts)


def test_hang_past_timeout_kills_the_whole_process_group(replay, tmp_path):
    child_pid = tmp_path / "child.pid"
    started = time.monotonic()
    facts = replay("spawn-hang", timeout=1.5, FAKE_CHILD_PID=str(child_pid))
    assert time.monotonic() - started < 15
    assert any("did not finish within" in f for f in _faults(facts))
    assert facts.harness["timed_out"]
    assert "L['n']" in _sources(facts)
    pid = int(child_pid.read_text())
    for _ in range(50):  # the grandchild was in the group: killed, then reaped by init
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the harness's child process survived the timeout")
    assert os.listdir(replay.scratch) == []


def test_truncated_trace_is_reported_and_the_rest_kept(replay):
    facts = replay("truncate")
    assert any("damaged or cut off" in f for f in _faults(facts))
    assert "L['n']" in _sources(facts)


def test_missing_command_and_silent_harness(tmp_path):
    facts = run_step(["vtlint-no-such-command-xyz"], tmp_path, timeout=10)
    assert any("cannot run the harness" in f for f in _faults(facts))
    silent = run_step([sys.executable, "-c", "pass"], tmp_path, timeout=30)
    assert any("wrote no structured trace" in f for f in _faults(silent))


def test_two_runs_at_once_share_nothing(replay):
    results: dict[str, RuntimeFacts] = {}
    threads = [threading.Thread(target=lambda a=a: results.__setitem__(a, replay(a))) for a in ("ok", "exit3")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert _faults(results["ok"]) == [] and len(_faults(results["exit3"])) == 1
    assert results["ok"].events == results["exit3"].events


def test_unsupported_torch_version_is_a_fault_not_a_crash(trace_fixture):
    trace, root = trace_fixture("examples")
    log = next(trace.glob("*.log"))
    old = log.read_text().replace('"2.13.0+cpu"', '"2.4.0"')
    log.write_text(relocate_log(old, "2.4.0", "2.4.0"))  # recompute the payload checksums
    facts = facts_from_trace(trace, root)
    assert facts.events == []
    assert any("torch 2.4.0" in f for f in _faults(facts))


def test_facts_round_trip_and_version_check(replay, tmp_path):
    facts = replay("ok")
    path = tmp_path / "facts.json"
    facts.save(path)
    data = json.loads(path.read_text())
    assert (data["format"], data["version"]) == ("vtlint-runtime-facts", FACTS_VERSION)
    loaded = RuntimeFacts.load(path)
    assert loaded.events == facts.events and loaded.coverage == facts.coverage
    assert loaded.summary() == facts.summary()
    data["version"] = FACTS_VERSION + 1
    with pytest.raises(FactsError, match="newer"):
        RuntimeFacts.from_dict(data)
    with pytest.raises(FactsError, match="not a vtlint runtime facts file"):
        RuntimeFacts.from_dict({"events": []})


def test_merge_evidence_with_runtime_facts(replay):
    facts = replay("ok")
    seed = "examples/seed.py:f"
    confirmed = Event(Action.WRAP, Location("examples/seed.py", 20), seed, source="L['n']")
    refuted = Event(Action.WRAP, Location("examples/seed.py", 20), seed, source="L['cfg'].depth")  # L['cfg'] guarded
    predicted = Event(Action.WRAP, Location("examples/other.py", 2), "examples/other.py:g", source="L['n']")
    runtime = facts.to_input()
    merged = merge([confirmed, refuted, predicted], runtime.events, runtime.exercised)
    evidence = {(m.event.entry, m.event.source): m.evidence for m in merged if m.event.action is Action.WRAP}
    assert evidence[(seed, "L['n']")] is Evidence.CONFIRMED
    assert evidence[(seed, "L['cfg'].depth")] is Evidence.REFUTED
    assert evidence[("examples/other.py:g", "L['n']")] is Evidence.PREDICTED
    assert evidence[(seed, "L['items'][0]")] is Evidence.RUNTIME_ONLY
    observed = next(m.observed for m in merged if m.evidence is Evidence.CONFIRMED)
    assert observed is not None and observed.guard == "EQUALS_MATCH: L['n'] == 3"


def test_coverage_lines(replay):
    lines = coverage_lines(replay("ok").summary())
    assert lines[0].startswith("Runtime: `") and "exercised 5 compiled entries, 12 compiles" in lines[0]
    assert "  examples/seed.py:f: 3 compiles, 3 graphs" in lines
    assert any(line.startswith("  examples/pitfalls.py:noisy: 1 compile (+1 resume-frame compile)") for line in lines)
