"""Output that scales (observations 1 and 6): the summary says what will recompile
and why first, then the breaks, then the rest; notes on what the static pass cannot
resolve are counted, listed only with --show-notes/-v; a site reached through
several compiled entries is one finding that lists them, in every format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

TWO_FORWARDS = """\
import torch
from torch import nn


def helper(x, cfg):
    print("x")
    if "k" in vars(cfg):
        return x * 2
    return x


class A(nn.Module):
    def forward(self, x):
        return helper(x, self)


class B(nn.Module):
    def forward(self, x):
        return helper(x, self) + 1
"""
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture
def two(project) -> Path:
    return project({"m.py": TWO_FORWARDS})


def test_a_break_in_a_helper_of_two_forwards_is_one_finding(run_cli, two: Path) -> None:
    text = run_cli("check", ".", "--assume-compiled", "forward", cwd=two).output
    [line] = [x for x in text.splitlines() if "VTL202" in x]
    assert line.startswith("m.py:6:5:") and line.endswith("(from 2 compiled entries: m.py:A.forward, m.py:B.forward)")
    report = json.loads(run_cli("check", ".", "--assume-compiled", "forward", "--format", "json", cwd=two).output)
    [brk] = [f for f in report["findings"] if f["code"] == "VTL202"]
    assert brk["entry"] == "m.py:A.forward" and brk["entries"] == ["m.py:A.forward", "m.py:B.forward"]
    sarif = json.loads(run_cli("check", ".", "--assume-compiled", "forward", "--format", "sarif", cwd=two).output)
    [result] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "VTL202"]
    assert result["properties"]["entries"] == ["m.py:A.forward", "m.py:B.forward"]


def test_notes_are_counted_not_listed(run_cli, two: Path) -> None:
    quiet = run_cli("check", ".", "--assume-compiled", "forward", cwd=two).output
    assert "dynamic attribute access, the values" not in quiet
    assert "1 note on what the static pass cannot resolve (dynamic attribute access ×1); -v shows them." in quiet
    for flag in ("-v", "--show-notes"):
        shown = run_cli("check", ".", "--assume-compiled", "forward", flag, cwd=two).output
        assert shown.count("dynamic attribute access, the values") == 1
        assert "-v shows them" not in shown


def test_the_summary_leads_with_recompiles_then_breaks(run_cli) -> None:
    lines = run_cli("check", ".", cwd=EXAMPLES).output.splitlines()
    at = {key: next(i for i, x in enumerate(lines) if x.startswith(key))
          for key in ("What will recompile, and why", "Graph breaks (", "Found ")}
    assert at["What will recompile, and why"] < at["Graph breaks ("] < at["Found "] == len(lines) - 1
    assert "  seed.py:f: `L['n']` at seed.py:29; `L['cfg'].scale` at seed.py:30" in lines
    assert "  step_counter.py:StepCounter.forward: `L['self'].step` at step_counter.py:15 (every call)" in lines
    assert "GB0124 Unsupported Tensor.item() call with capture_scalar_outputs=False ×1" in lines[at["Graph breaks ("]]


def test_statistics_per_cause_then_entry_then_code(run_cli) -> None:
    out = run_cli("check", ".", "--statistics", cwd=EXAMPLES).output
    stats = out[out.index("recompile:\n"):]
    heads = ["recompile:", "graph-break:", "baked-constant:", "per compiled entry", "per code:"]
    assert [stats.index(h) for h in heads] == sorted(stats.index(h) for h in heads)
    assert "    2     0     6  seed.py:f" in stats


def test_no_progress_bar_off_a_terminal(run_cli, two: Path) -> None:
    out = run_cli("check", ".", "--assume-compiled", "forward", cwd=two).output
    assert "summarizing" not in out and "walking compiled entries" not in out and "\x1b" not in out


def test_github_annotations_leave_notes_out_unless_asked(run_cli, two: Path) -> None:
    plain = run_cli("check", ".", "--assume-compiled", "forward", "--format", "github", cwd=two).output
    assert "dynamic attribute access" not in plain
    shown = run_cli("check", ".", "--assume-compiled", "forward", "--format", "github", "-v", cwd=two).output
    assert "::notice title=vtlint limit::" in shown and "dynamic attribute access" in shown


def test_causes_of_a_break_in_a_loop_and_of_notes() -> None:
    from vtlint.findings import Finding, Kind, Level, Location, Notification
    from vtlint.report.groups import break_cause, note_cause

    loop = Finding("VTL207", Kind.GRAPH_BREAK, Level.WARNING, Location("a.py", 1), "Graph break in a loop "
                   "(GB7000 graph break in loop), caused by GB0170 Data-dependent branching: Dynamo skips", gb_id="GB7000")
    assert break_cause(loop) == "GB0170 Data-dependent branching in a loop"
    star = Notification("limit", "m.py:f: `AutoModel` may come from a star-import; its value is unknown", Level.NOTE)
    assert note_cause(star) == "`…` may come from a star-import"  # one cause, whatever the name
