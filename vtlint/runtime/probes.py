"""Perturbation probes (`--probe`): after the harness is done, vtlint's hook
re-calls each compiled callable with one predicted baked constant changed and
records the guard Dynamo reports as failed -- evidence that the value is baked
in and that changing it recompiles, in Dynamo's own words."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from vtlint.bounded import loads, read_text
from vtlint.findings import Notification
from vtlint.runtime.events import ProjectFiles
from vtlint.runtime.structured_trace import MAX_RECORDS_BYTES, parse_recompile_reasons
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
    for path in sorted(trace_dir.glob(PROBE_GLOB)):
        try:
            lines = read_text(path, MAX_RECORDS_BYTES, errors="replace").splitlines()
        except OSError as exc:
            notifications.append(Notification("runtime-fault", f"{path.name}: cannot read: {exc.strerror}"))
            continue
        for number, line in enumerate(lines, 1):
            try:
                record = loads(line)
                if not all(isinstance(record.get(key), str) for key in _REQUIRED):
                    raise TypeError("missing fields")
                display = files.display(record["file"])
            except (ValueError, TypeError, AttributeError):
                notifications.append(Notification("runtime-fault", f"{path.name}:{number}: damaged probe record"))
                continue
            if display is None:
                continue
            first = record.get("firstlineno")
            qual = files.qualname(record["file"], record["function"], first if isinstance(first, int) else None) \
                or record["function"]
            lines_failed = record.get("failed") if isinstance(record.get("failed"), list) else []
            failed = [r.text for line in lines_failed if isinstance(line, str) for r in parse_recompile_reasons(line, "")]
            probes.append({
                "entry": f"{display}:{qual}", "source": record["source"], "old": record.get("old"),
                "new": record.get("new"), "failed_guard": failed[0] if failed else None,
                "recompiled": bool(failed), "error": record.get("error"),
            })
    return probes


def attach_probes(events: list[Event], probes: list[dict[str, Any]]) -> list[Event]:
    """Put each probe's result on the observed WRAP of the same entry and Source."""
    by_key = {(p["entry"], p["source"]): p for p in probes}
    out = []
    for event in events:
        probe = by_key.get((event.entry, event.source)) if event.action is Action.WRAP else None
        out.append(event.with_(detail={**event.detail, "probe": probe}) if probe else event)
    return out
