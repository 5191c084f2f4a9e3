"""GitHub code scanning's ingestion rules for SARIF, as project code.

Two halves: `enforce_limits` trims a run to what GitHub accepts and displays (and
says so in a tool notification), `github_problems` checks a whole log against the
documented upload limits and the rules the SARIF Multitool checks as GH1001-GH1007
(https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning).
Both work on the JSON form, so they apply to what `vtlint merge` reads as well."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

# The documented upload limits. Past the first group GitHub rejects the upload;
# past the second it silently drops data, so vtlint trims to those itself.
MAX_RUNS = 20
MAX_RESULTS = 25_000
MAX_RULES = 25_000
MAX_EXTENSIONS = 100
MAX_THREAD_FLOW_LOCATIONS = 10_000
MAX_LOCATIONS = 1_000
MAX_TAGS = 20
MAX_DESCRIPTION = 1_024  # shortDescription.text and fullDescription.text of a rule
MAX_GZIP_BYTES = 10 * 1024 * 1024
SHOWN_RESULTS = 5_000  # "only the top 5,000 results will be included, prioritized by severity"
SHOWN_THREAD_FLOW_LOCATIONS = 1_000
SHOWN_LOCATIONS = 100  # applied to relatedLocations too: more never helps a reader
SHOWN_TAGS = 10

_LEVEL_RANK = {"error": 0, "warning": 1, "note": 2, "none": 3}
_EVIDENCE_RANK = {"confirmed": 0, "runtime-only": 1, "refuted": 2, "predicted": 3}


def _priority(result: dict[str, Any]) -> tuple[int, int]:
    props = result.get("properties", {})
    return (_LEVEL_RANK.get(result.get("level", "warning"), 1), _EVIDENCE_RANK.get(props.get("evidence"), 4))


def enforce_limits(log: dict[str, Any], max_results: int = MAX_RESULTS) -> None:
    """Trim every run of `log` in place to GitHub's limits, keep `rules` exactly the
    rules its results use (re-indexing `ruleIndex`), and record each cut as a
    `limit` notification. Then shrink results until the gzipped log fits."""
    for run in log.get("runs", []):
        _trim_run(run, max_results)
    while _gzip_size(log) > MAX_GZIP_BYTES:
        run = max(log.get("runs", []), key=lambda r: len(r.get("results", [])), default=None)
        if run is None or not run.get("results"):
            break  # nothing left to drop: the rules and notifications alone are that big
        keep = len(run["results"]) * 9 // 10
        _trim_run(run, keep, why="the gzipped log must stay under 10 MB")


def _trim_run(run: dict[str, Any], max_results: int, why: str = "") -> None:
    results: list[dict[str, Any]] = run.get("results", [])
    notes: list[str] = []
    if len(results) > max_results:
        ranked = sorted(range(len(results)), key=lambda i: (_priority(results[i]), i))
        keep = sorted(ranked[:max_results])
        notes.append(
            f"{len(results) - max_results} of {len(results)} results left out"
            f" ({why or f'GitHub accepts at most {MAX_RESULTS:,} per run'}); the most severe were kept."
        )
        results = run["results"] = [results[i] for i in keep]
    cut_related = cut_flow = 0
    for result in results:
        related = result.get("relatedLocations", [])
        if len(related) > SHOWN_LOCATIONS:
            cut_related += len(related) - SHOWN_LOCATIONS
            result["relatedLocations"] = related[:SHOWN_LOCATIONS]
        for flow in result.get("codeFlows", []):
            for thread in flow.get("threadFlows", []):
                locations = thread.get("locations", [])
                if len(locations) > SHOWN_THREAD_FLOW_LOCATIONS:
                    cut_flow += len(locations) - SHOWN_THREAD_FLOW_LOCATIONS
                    # keep the entry end and the break end of the inline chain
                    half = SHOWN_THREAD_FLOW_LOCATIONS // 2
                    thread["locations"] = locations[:half] + locations[-half:]
    if cut_related:
        notes.append(f"{cut_related} related locations left out (GitHub shows {SHOWN_LOCATIONS} per result).")
    if cut_flow:
        shown = SHOWN_THREAD_FLOW_LOCATIONS
        notes.append(f"{cut_flow} inline-chain steps left out (GitHub shows {shown} per code flow).")
    _reindex_rules(run)
    for message in notes:
        _notify(run, message)
    if len(results) > SHOWN_RESULTS and not why:
        text = f"{len(results)} results: GitHub code scanning displays only the {SHOWN_RESULTS:,} most severe."
        _notify(run, text, "note")


def _reindex_rules(run: dict[str, Any]) -> None:
    driver = run["tool"]["driver"]
    used = {r.get("ruleId") for r in run.get("results", [])}
    rules = sorted((rule for rule in driver.get("rules", []) if rule["id"] in used), key=lambda r: r["id"])
    for rule in rules:
        tags = rule.get("properties", {}).get("tags")
        if tags and len(tags) > SHOWN_TAGS:
            rule["properties"]["tags"] = tags[:SHOWN_TAGS]
    if rules:
        driver["rules"] = rules
    else:
        driver.pop("rules", None)
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    for result in run.get("results", []):
        if result.get("ruleId") in index:
            result["ruleIndex"] = index[result["ruleId"]]


def _notify(run: dict[str, Any], text: str, level: str = "warning") -> None:
    invocations = run.setdefault("invocations", [{"executionSuccessful": True}])
    notes = invocations[0].setdefault("toolExecutionNotifications", [])
    note = {"descriptor": {"id": "limit"}, "level": level, "message": {"text": text}}
    if note not in notes:
        notes.append(note)


def _gzip_size(log: dict[str, Any]) -> int:
    return len(gzip.compress(json.dumps(log).encode("utf-8"), compresslevel=6))


# -- checks ----------------------------------------------------------------


def github_problems(log: dict[str, Any]) -> list[str]:
    """Everything in `log` that GitHub code scanning would reject, drop or show
    badly; an empty list means it is fit to upload."""
    problems: list[str] = []
    if log.get("version") != "2.1.0":
        problems.append("/version: must be 2.1.0")
    if not log.get("$schema"):
        problems.append("/$schema: missing")
    runs = log.get("runs") or []
    if not runs:
        problems.append("/runs: no run")
    if len(runs) > MAX_RUNS:
        problems.append(f"/runs: {len(runs)} runs, GitHub accepts at most {MAX_RUNS}")
    problems += [f"{where}: empty string" for where in _empty_strings(log, "")]
    for r, run in enumerate(runs):
        problems += _run_problems(run, f"/runs/{r}")
    if _gzip_size(log) > MAX_GZIP_BYTES:
        problems.append("the gzipped log is over 10 MB")
    return problems


def _empty_strings(value: Any, where: str) -> Iterator[str]:
    if isinstance(value, str):
        if not value:
            yield where or "/"
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _empty_strings(item, f"{where}/{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _empty_strings(item, f"{where}/{i}")


def _run_problems(run: dict[str, Any], where: str) -> list[str]:
    problems: list[str] = []
    driver = run.get("tool", {}).get("driver", {})
    if not driver.get("name"):
        problems.append(f"{where}/tool/driver/name: missing")
    rules = driver.get("rules", [])
    results = run.get("results", [])
    if len(results) > MAX_RESULTS:
        problems.append(f"{where}/results: {len(results)} results, at most {MAX_RESULTS}")
    if len(rules) > MAX_RULES:
        problems.append(f"{where}/tool/driver/rules: {len(rules)} rules, at most {MAX_RULES}")
    if len(run.get("tool", {}).get("extensions", [])) > MAX_EXTENSIONS:
        problems.append(f"{where}/tool/extensions: more than {MAX_EXTENSIONS}")
    for i, rule in enumerate(rules):
        problems += _rule_problems(rule, f"{where}/tool/driver/rules/{i}")
    ids = [rule.get("id") for rule in rules]
    if len(set(ids)) != len(ids):
        problems.append(f"{where}/tool/driver/rules: duplicate rule ids")
    has_checkout = any(inv.get("workingDirectory") for inv in run.get("invocations", []))
    for i, result in enumerate(results):
        problems += _result_problems(result, rules, run, has_checkout, f"{where}/results/{i}")
    return problems


def _rule_problems(rule: dict[str, Any], where: str) -> list[str]:
    problems = []
    if not rule.get("id"):
        problems.append(f"{where}/id: missing")
    for key in ("shortDescription", "fullDescription"):
        text = rule.get(key, {}).get("text", "")
        if not text:
            problems.append(f"{where}/{key}/text: missing")
        elif len(text) > MAX_DESCRIPTION:
            problems.append(f"{where}/{key}/text: {len(text)} characters, at most {MAX_DESCRIPTION}")
    if not rule.get("help", {}).get("text"):
        problems.append(f"{where}/help/text: missing")
    props = rule.get("properties", {})
    if len(props.get("tags", [])) > MAX_TAGS:
        problems.append(f"{where}/properties/tags: more than {MAX_TAGS}")
    if props.get("precision") not in (None, "very-high", "high", "medium", "low"):
        problems.append(f"{where}/properties/precision: {props['precision']!r}")
    if props.get("problem.severity") not in (None, "error", "warning", "recommendation"):
        problems.append(f"{where}/properties/problem.severity: {props['problem.severity']!r}")
    if "security-severity" in props:
        try:
            float(props["security-severity"])
        except (TypeError, ValueError):
            problems.append(f"{where}/properties/security-severity: not a number")
    return problems


def _result_problems(
    result: dict[str, Any], rules: list[dict[str, Any]], run: dict[str, Any], has_checkout: bool, where: str
) -> list[str]:
    problems = []
    if not result.get("message", {}).get("text"):
        problems.append(f"{where}/message/text: missing (GH1007)")
    index = result.get("ruleIndex")
    if index is not None and not (0 <= index < len(rules) and rules[index].get("id") == result.get("ruleId")):
        problems.append(f"{where}/ruleIndex: {index} does not name rule {result.get('ruleId')!r}")
    locations = result.get("locations") or []
    if not locations:
        problems.append(f"{where}/locations: missing (GH1001)")
    if len(locations) > MAX_LOCATIONS:
        problems.append(f"{where}/locations: more than {MAX_LOCATIONS}")
    for i, loc in enumerate(locations):
        problems += _location_problems(loc, run, has_checkout, f"{where}/locations/{i}")
    for i, loc in enumerate(result.get("relatedLocations", [])):
        problems += _location_problems(loc, run, has_checkout, f"{where}/relatedLocations/{i}")
    for f, flow in enumerate(result.get("codeFlows", [])):
        for t, thread in enumerate(flow.get("threadFlows", [])):
            steps = thread.get("locations", [])
            if len(steps) > MAX_THREAD_FLOW_LOCATIONS:
                limit = MAX_THREAD_FLOW_LOCATIONS
                problems.append(f"{where}/codeFlows/{f}/threadFlows/{t}: more than {limit} locations")
            for s, step in enumerate(steps):
                if "location" not in step:
                    problems.append(f"{where}/codeFlows/{f}/threadFlows/{t}/locations/{s}: not inline (GH1002)")
    for key, value in (result.get("partialFingerprints") or {}).items():
        if not isinstance(value, str):
            problems.append(f"{where}/partialFingerprints/{key}: not a string")
    return problems


def _location_problems(loc: dict[str, Any], run: dict[str, Any], has_checkout: bool, where: str) -> list[str]:
    physical = loc.get("physicalLocation")
    if not physical or not physical.get("artifactLocation", {}).get("uri"):
        return [f"{where}/physicalLocation/artifactLocation/uri: missing (GH1001)"]
    problems = []
    artifact = physical["artifactLocation"]
    scheme = urlsplit(artifact["uri"]).scheme
    if scheme and scheme != "file":
        problems.append(f"{where}: URI scheme {scheme!r}: only relative or file URIs are shown (GH1005)")
    if scheme == "file" and not has_checkout:
        problems.append(f"{where}: absolute file URI without invocations[].workingDirectory (GH1006)")
    base = artifact.get("uriBaseId")
    if base and base not in (run.get("originalUriBaseIds") or {}):
        problems.append(f"{where}: uriBaseId {base!r} not in run.originalUriBaseIds")
    region = physical.get("region")
    if not region or "startLine" not in region:
        problems.append(f"{where}/physicalLocation/region/startLine: missing (GH1003)")
    else:
        start = (region["startLine"], region.get("startColumn", 1))
        end = (region.get("endLine", start[0]), region.get("endColumn", start[1]))
        if end < start:
            problems.append(f"{where}/physicalLocation/region: ends before it starts")
    return problems
