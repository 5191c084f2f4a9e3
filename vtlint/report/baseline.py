"""Baselines: a SARIF log of accepted findings. `--baseline FILE` reports only
findings whose fingerprint (`partialFingerprints["vtlint/v1"]`) is not in it, so
old findings stay hidden when lines move; `--write-baseline FILE` writes one."""

from __future__ import annotations

from pathlib import Path

from vtlint.bounded import loads, read_bytes
from vtlint.check import CheckResult
from vtlint.findings import Level, Notification
from vtlint.report.fingerprint import NAMESPACE, SourceLines, fingerprints
from vtlint.report.sarif_merge import MAX_LOG_BYTES, member, schema_problem


class BaselineError(Exception):
    """A baseline that cannot be read or is not a vtlint SARIF log."""


def load_baseline(path: Path) -> set[str]:
    """The fingerprints of every vtlint result in the SARIF log at `path`."""
    try:
        log = loads(read_bytes(path, MAX_LOG_BYTES))
    except OSError as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise BaselineError(f"baseline {path} is not JSON: {exc}") from None
    if not isinstance(log, dict) or not isinstance(log.get("runs"), list):
        raise BaselineError(f"baseline {path} is not a SARIF log (no runs)")
    problem = schema_problem(log)  # as `vtlint merge` refuses it: a baseline that hides nothing is no baseline
    if problem:
        raise BaselineError(f"baseline {path} is not valid SARIF 2.1.0 at {problem}")
    found: set[str] = set()
    for run in log["runs"]:
        if member(member(run, "tool"), "driver").get("name") != "vtlint":
            continue
        for result in run.get("results", []):
            fingerprint = member(result, "partialFingerprints").get(NAMESPACE)
            if isinstance(fingerprint, str):
                found.add(fingerprint)
    return found


def apply_baseline(result: CheckResult, path: Path, root: Path) -> list[str]:
    """Drop from `result` the findings in the baseline at `path`; return the
    fingerprints of those kept (computed over all findings, so the SARIF written
    next numbers identical findings as the baseline did)."""
    baseline = load_baseline(path)
    prints = fingerprints(result.findings, SourceLines(root))
    kept = [(f, fp) for f, fp in zip(result.findings, prints) if fp not in baseline]
    hidden = len(result.findings) - len(kept)
    result.findings = [f for f, _ in kept]
    if hidden:
        result.notifications.append(
            Notification(
                "baseline", f"{hidden} finding{'s' if hidden != 1 else ''} in the baseline {path.name} not reported",
                Level.NOTE,
            )
        )
    return [fp for _, fp in kept]
