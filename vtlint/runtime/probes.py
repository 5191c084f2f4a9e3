"""Perturbation probes (`--probe`): after the harness is done, vtlint's hook
re-calls each compiled callable with one predicted baked constant changed and
records the guard Dynamo reports as failed -- evidence that the value is baked
in and that changing it recompiles, in Dynamo's own words."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from vtlint.bounded import loads
from vtlint.findings import Notification
from vtlint.runtime.events import ProjectFiles
from vtlint.runtime.structured_trace import Problems, TraceBudget, parse_recompile_reasons, record_lines
from vtlint.trace import Action, Event, entry_function

PROBE_GLOB = "vtlint_probes_*.jsonl"
_REQUIRED = ("file", "function", "source")  # what every record must name, as strings
# An argument, or an attribute/item reached from one: what a probe can change.
_PROBEABLE = re.compile(r"^L\[(['\"])\w+\1\](?:\.[A-Za-z_]\w*|\[\d+\]|\[(['\"])[^'\"]*\2\])*$")


def plan_from_events(events: Iterable[Event], root: Path) -> list[dict[str, Any]]:
    """The predicted baked constants (ConstantVariable WRAPs) a probe can change."""
    plan: dict[tuple[str, str, str], dict[str, Any]] = {}
    for event in events:
        if event.action is not Action.WRAP or event.variable_tracker != "ConstantVariable" or not event.source:
            continue
        if not _PROBEABLE.match(event.source):
            continue
        path = event.entry.rpartition(":")[0] or event.location.path
        function = entry_function(event.entry).rpartition(".")[2]
        file = str((root / path).resolve())
        plan.setdefault((file, function, event.source), {"file": file, "function": function, "source": event.source})
    return list(plan.values())


def read_probes(trace_dir: Path, root: Path, notifications: list[Notification]) -> list[dict[str, Any]]:
    """The hook's probe records, with display paths and entries like the events'."""
    files = ProjectFiles(root)
    probes = []
    budget, problems = TraceBudget(), Problems()
    for path in sorted(trace_dir.glob(PROBE_GLOB)):
        for number, line in record_lines(path, problems, budget):
            try:
                record = loads(line)
                if not all(isinstance(record.get(key), str) for key in _REQUIRED):
                    raise TypeError("missing fields")
                display = files.display(record["file"])
            except (ValueError, TypeError, AttributeError):
                problems.append(f"{path.name}:{number}: damaged probe record")
                continue
            if display is None:
                continue
            first = record.get("firstlineno")
            qual = files.qualname(record["file"], record["function"], first if isinstance(first, int) else None) \
                or record["function"]
            lines_failed = record.get("failed") if isinstance(record.get("failed"), list) else []
            failed = [r.text for line in lines_failed if isinstance(line, str) for r in parse_recompile_reasons(line, "")]
            probes.append({
                "entry": f"{display}:{qual}", "source": record["source"], "old": _text(record.get("old")),
                "new": _text(record.get("new")), "failed_guard": failed[0] if failed else None,
                "recompiled": bool(failed), "error": _text(record.get("error")),
            })
    notifications.extend(Notification("runtime-fault", problem) for problem in problems)
    if problems.more:
        notifications.append(Notification("runtime-fault", f"and {problems.more:,} more damaged probe records"))
    return probes


def _text(value: object) -> str | None:
    """A record's value as the saved facts type it (the hook writes reprs; a damaged record, anything)."""
    return value if value is None or isinstance(value, str) else repr(value)


def attach_probes(events: list[Event], probes: list[dict[str, Any]]) -> list[Event]:
    """Put each probe's result on the observed WRAP of the same entry and Source."""
    by_key = {(p["entry"], p["source"]): p for p in probes}
    out = []
    for event in events:
        probe = by_key.get((event.entry, event.source)) if event.action is Action.WRAP else None
        out.append(event.with_(detail={**event.detail, "probe": probe}) if probe else event)
    return out
