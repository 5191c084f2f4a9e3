"""`vtlint merge`: shards and separate static/runtime runs -> one SARIF run.

Results are the same finding when their `vtlint/v1` fingerprints agree. Their
evidence is joined as the static and runtime traces are: a prediction one run made
and another run saw at runtime is `confirmed`; the runtime's record (its message,
level and runtime facts) wins over the static one."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from vtlint.bounded import MiB, loads, read_bytes
from vtlint.report.fingerprint import NAMESPACE
from vtlint.report.sarif_github import enforce_limits

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
MAX_LOG_BYTES = 1024 * MiB  # GitHub takes 10 MB gzipped; uncompressed logs are many times that
_RUNTIME_RANK = {"confirmed": 3, "runtime-only": 2, "refuted": 1, "predicted": 0}


class MergeError(Exception):
    """Logs that cannot be merged into one vtlint run."""


def merge_logs(logs: Iterable[dict[str, Any]], category: str | None = None) -> dict[str, Any]:
    logs = list(logs)
    runs = [run for log in logs for run in _runs(log)]
    if not runs:
        raise MergeError("nothing to merge: no runs")
    merged = copy.deepcopy(runs[0])
    merged["automationDetails"] = {"id": _category(runs, category)}
    merged["tool"]["driver"]["rules"] = _rules(runs)
    # the first run's root wins: shards checked out elsewhere still resolve against one
    merged["originalUriBaseIds"] = {
        key: value for run in reversed(runs) for key, value in run.get("originalUriBaseIds", {}).items()
    }
    merged["invocations"] = [_invocation(runs)]
    merged["results"] = sorted(_results(runs), key=_order)
    if not merged["originalUriBaseIds"]:
        del merged["originalUriBaseIds"]
    schema = next((log["$schema"] for log in logs if log.get("$schema")), SCHEMA_URI)
    log = {"$schema": schema, "version": "2.1.0", "runs": [merged]}
    enforce_limits(log)
    return log


def _runs(log: dict[str, Any]) -> list[dict[str, Any]]:
    if not isinstance(log, dict) or log.get("version") != "2.1.0" or not isinstance(log.get("runs"), list):
        raise MergeError("not a SARIF 2.1.0 log")
    for run in log["runs"]:
        driver = member(member(run, "tool"), "driver")
        if driver.get("name") != "vtlint":
            raise MergeError(f"a run of {driver.get('name')!r}: vtlint merges only its own runs")
    problem = schema_problem(log)
    if problem:
        raise MergeError(f"not valid SARIF 2.1.0 at {problem}")
    return log["runs"]


def member(value: Any, key: str) -> dict[str, Any]:
    """`value[key]` when both are objects, else an empty one (hostile logs hold anything)."""
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, dict) else {}


@functools.cache
def _schema() -> Any:
    from jsonschema import validators

    schema = json.loads((Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    return validators.validator_for(schema)(schema)


def schema_problem(log: Any) -> str | None:
    """The first way `log` breaks the SARIF 2.1.0 schema, or None: merge copies runs
    into its output, so an invalid input would make invalid output."""
    error = next(iter(_schema().iter_errors(log)), None)
    if error is None:
        return None
    return f"/{'/'.join(map(str, error.absolute_path))}: {error.message[:200]}"


def _category(runs: list[dict[str, Any]], override: str | None) -> str:
    if override:
        return override.rstrip("/") + "/"
    ids = sorted({run.get("automationDetails", {}).get("id", "vtlint/") for run in runs})
    categories = {i.rpartition("/")[0] or i for i in ids}
    if len(categories) > 1:
        raise MergeError(f"runs of different categories ({', '.join(sorted(categories))}): pass --category")
    return categories.pop() + "/"


def _rules(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rules: dict[str, dict[str, Any]] = {}
    for run in runs:
        for rule in run["tool"]["driver"].get("rules", []):
            rules.setdefault(rule["id"], rule)
    return [rules[code] for code in sorted(rules)]


def _invocation(runs: list[dict[str, Any]]) -> dict[str, Any]:
    invocations = [inv for run in runs for inv in run.get("invocations", [])]
    notes: list[dict[str, Any]] = []
    for inv in invocations:
        for note in inv.get("toolExecutionNotifications", []):
            if note not in notes:
                notes.append(note)
    merged: dict[str, Any] = {"executionSuccessful": all(inv.get("executionSuccessful", True) for inv in invocations)}
    if notes:
        merged["toolExecutionNotifications"] = notes
    working = next((inv["workingDirectory"] for inv in invocations if inv.get("workingDirectory")), None)
    if working:
        merged["workingDirectory"] = working
    properties = _properties(invocations)
    if properties:
        merged["properties"] = properties
    return merged


def _properties(invocations: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts (files analyzed, entries) add up over the shards of one tree; a run
    over the whole tree (static or runtime) already counts them all, so take the
    larger of the two. Other properties: the first run's."""
    properties: dict[str, Any] = {}
    sharded: dict[str, int] = {}
    whole: dict[str, int] = {}
    for inv in invocations:
        props = inv.get("properties", {})
        for key, value in props.items():
            if key == "shard":
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                if "shard" in props:
                    sharded[key] = sharded.get(key, 0) + value
                else:
                    whole[key] = max(whole.get(key, 0), value)
            else:
                properties.setdefault(key, value)
    for key in sorted({*sharded, *whole}):
        properties[key] = max(sharded.get(key, 0), whole.get(key, 0))
    return properties


def _results(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_key: dict[str, list[dict[str, Any]]] = {}
    for run in runs:
        for result in run.get("results", []):
            by_key.setdefault(_key(result), []).append(result)
    return [_join(same) for same in by_key.values()]


def _key(result: dict[str, Any]) -> str:
    fingerprint = (result.get("partialFingerprints") or {}).get(NAMESPACE)
    if fingerprint:
        return fingerprint
    return json.dumps([result.get("ruleId"), result.get("locations"), result.get("message")], sort_keys=True)


def joined_evidence(evidences: Iterable[str]) -> str:
    """The evidence of one finding seen by several runs (see `vtlint.report.merge`)."""
    values = set(evidences)
    predicted = bool(values & {"predicted", "confirmed", "refuted"})
    seen = bool(values & {"confirmed", "runtime-only"})
    if predicted and seen:
        return "confirmed"
    if seen:
        return "runtime-only"
    return "refuted" if "refuted" in values else "predicted"


def _join(same: list[dict[str, Any]]) -> dict[str, Any]:
    evidences = [r.get("properties", {}).get("evidence") for r in same]
    best = max(range(len(same)), key=lambda i: (_RUNTIME_RANK.get(evidences[i] or "", -1), -i))
    result = copy.deepcopy(same[best])
    if any(evidences):
        result.setdefault("properties", {})["evidence"] = joined_evidence(e for e in evidences if e)
    return result


def _order(result: dict[str, Any]) -> tuple[Any, ...]:
    """Source order, as `vtlint check` sorts findings."""
    physical = (result.get("locations") or [{}])[0].get("physicalLocation", {})
    region = physical.get("region", {})
    uri = unquote(physical.get("artifactLocation", {}).get("uri", ""))
    return (uri, region.get("startLine", 0), region.get("startColumn", 0), result.get("ruleId", ""),
            result.get("message", {}).get("text", ""))


def merge_files(paths: Iterable[Path], category: str | None = None) -> str:
    """The merged log of the SARIF files at `paths`, as text."""
    logs = []
    for path in paths:
        try:
            logs.append(loads(read_bytes(path, MAX_LOG_BYTES)))
        except OSError as exc:
            raise MergeError(f"cannot read {path}: {exc.strerror}") from None
        except ValueError as exc:
            raise MergeError(f"{path} is not JSON: {exc}") from None
        try:
            _runs(logs[-1])
        except MergeError as exc:
            raise MergeError(f"{path}: {exc}") from None
    return json.dumps(merge_logs(logs, category), indent=2, ensure_ascii=False, sort_keys=True) + "\n"
