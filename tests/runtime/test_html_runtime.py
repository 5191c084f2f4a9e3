"""The HTML report shows runtime evidence: each mark's evidence and, per compiled
entry, what the harness compiled (replayed examples trace, no torch)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

FAKE = Path(__file__).parent / "fake_harness.py"


def test_html_shows_the_runtime_evidence(run_cli, trace_fixture) -> None:
    trace, root = trace_fixture("examples")
    command = shlex.join([sys.executable, str(FAKE), str(next(trace.glob("*.log"))), "ok"])
    assert run_cli("trace", "--output", "facts.json", "--", *shlex.split(command), cwd=root).exit_code == 0
    result = run_cli("check", "examples", "--runtime-facts", "facts.json", "--format", "html", "-o", "r.html", cwd=root)
    assert result.exit_code == 1, result.output
    page = (root / "r.html").read_text(encoding="utf-8")
    assert "runtime: 3 compiles, 3 graphs, 0 graph breaks" in page
    assert "<span class='ev ev-confirmed'>confirmed</span>" in page
