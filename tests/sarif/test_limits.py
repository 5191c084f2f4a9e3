"""GitHub's upload limits: past them vtlint trims, says so, and stays valid."""

from __future__ import annotations

import copy

import pytest
from sarif_support import Sample, assert_valid

from vtlint.report import sarif_github
from vtlint.report.sarif_github import (
    MAX_RESULTS,
    SHOWN_LOCATIONS,
    SHOWN_TAGS,
    SHOWN_THREAD_FLOW_LOCATIONS,
    enforce_limits,
    github_problems,
)


def _notes(log: dict) -> list[str]:
    return [n["message"]["text"] for n in log["runs"][0]["invocations"][0].get("toolExecutionNotifications", [])
            if n["descriptor"]["id"] == "limit"]


def _oversized(sample: Sample) -> dict:
    """The sample log blown up past every limit, at the JSON level (fast)."""
    log = sample.log()
    run = log["runs"][0]
    by_rule = {r["ruleId"]: r for r in run["results"]}
    warning, error = by_rule["VTL101"], by_rule["VTL201"]
    related = warning["relatedLocations"][0]
    warning["relatedLocations"] = [dict(copy.deepcopy(related), id=i) for i in range(1, SHOWN_LOCATIONS + 6)]
    steps = error["codeFlows"][0]["threadFlows"][0]["locations"]
    error["codeFlows"][0]["threadFlows"][0]["locations"] = [copy.deepcopy(steps[0]) for _ in range(1_200)] + [steps[-1]]
    rule = next(r for r in run["tool"]["driver"]["rules"] if r["id"] == "VTL201")
    rule["properties"]["tags"] = [f"t{i}" for i in range(SHOWN_TAGS + 5)]
    # more results than GitHub accepts: mostly warnings, a few errors at the end
    clones = []
    for i in range(MAX_RESULTS + 10):
        source = error if i >= MAX_RESULTS - 3 else warning
        clone = {key: value for key, value in source.items() if key not in ("relatedLocations", "codeFlows")}
        clone["partialFingerprints"] = {"vtlint/v1": f"{i:032x}"}
        clones.append(clone)
    run["results"] = [warning, error, *clones]
    return log


def test_limits_are_enforced_with_notifications(sample: Sample) -> None:
    log = _oversized(sample)
    assert github_problems(log)  # rejected as it is
    enforce_limits(log)
    assert github_problems(log) == []
    results = log["runs"][0]["results"]
    assert len(results) == MAX_RESULTS
    assert sum(r["level"] == "error" for r in results) == 14  # every error kept, warnings dropped first
    assert len(results[0]["relatedLocations"]) == SHOWN_LOCATIONS
    steps = results[1]["codeFlows"][0]["threadFlows"][0]["locations"]
    assert len(steps) == SHOWN_THREAD_FLOW_LOCATIONS and steps[-1]["nestingLevel"] == 1  # the break itself is kept
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["VTL101", "VTL201"]  # VTL001 no longer used
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)
    assert len(rules[1]["properties"]["tags"]) == SHOWN_TAGS
    assert _notes(log) == [
        f"12 of {MAX_RESULTS + 12} results left out (GitHub accepts at most 25,000 per run); the most severe were kept.",
        f"{5} related locations left out (GitHub shows {SHOWN_LOCATIONS} per result).",
        f"{201} inline-chain steps left out (GitHub shows {SHOWN_THREAD_FLOW_LOCATIONS} per code flow).",
        f"{MAX_RESULTS} results: GitHub code scanning displays only the 5,000 most severe.",
    ]


def test_the_gzipped_size_limit(sample: Sample, monkeypatch: pytest.MonkeyPatch) -> None:
    log = sample.log()
    log["runs"][0]["results"] = [copy.deepcopy(r) for r in log["runs"][0]["results"] * 20]
    for i, result in enumerate(log["runs"][0]["results"]):
        result["partialFingerprints"] = {"vtlint/v1": f"{i:032x}"}
    limit = sarif_github._gzip_size(log) * 9 // 10
    monkeypatch.setattr(sarif_github, "MAX_GZIP_BYTES", limit)
    enforce_limits(log)
    assert sarif_github._gzip_size(log) <= limit
    assert 0 < len(log["runs"][0]["results"]) < 60
    assert "the gzipped log must stay under 10 MB" in _notes(log)[0]
    assert_valid(log)
