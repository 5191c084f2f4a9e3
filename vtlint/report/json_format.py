"""The JSON report: a documented, versioned schema (docs/json-format.md and
vtlint/report/schemas/report-v1.json). Sorted and free of timestamps, so that the
same input gives byte-identical output."""

from __future__ import annotations

import json
from typing import Any

from vtlint import __version__
from vtlint.check import CheckResult

SCHEMA_VERSION = 1


def report_dict(result: CheckResult) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "vtlint", "version": __version__},
        "torch_version": result.torch_version,
        "files_analyzed": len(result.files),
        "entries": [
            {"entry": e.entry, "how": e.how, "location": e.location.to_dict(), "options": e.options,
             "compiled_at": e.compiled_at.to_dict() if e.compiled_at else None,
             "called_at": [c.to_dict() for c in e.called_at]}
            for e in sorted(result.entries, key=lambda e: e.entry)
        ],
        "findings": [f.to_dict() for f in result.findings],
        "notifications": [n.to_dict() for n in result.notifications],
        "runtime": result.runtime or None,
    }


def render_json(result: CheckResult) -> str:
    return json.dumps(report_dict(result), indent=2, sort_keys=True, ensure_ascii=False, default=str) + "\n"
