"""GitHub Actions workflow commands: one annotation per finding."""

from __future__ import annotations

from vtlint.check import CheckResult
from vtlint.findings import Finding, Level

_COMMAND = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "notice"}


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(finding: Finding) -> str:
    loc = finding.location
    end_line, end_col = loc.end
    props = ",".join(
        [
            f"file={_escape_property(loc.path)}",
            f"line={loc.line}",
            f"col={loc.column}",
            f"endLine={end_line}",
            f"endColumn={end_col}",
            f"title={_escape_property(finding.code)}",
        ]
    )
    message = f"{finding.code} {finding.message} [{finding.evidence.value}]"
    return f"::{_COMMAND[finding.level]} {props}::{_escape_data(message)}"


def render_github(result: CheckResult, show_notes: bool = False) -> str:
    lines = [annotation(f) for f in result.findings if show_notes or f.level is not Level.NOTE]
    return "".join(line + "\n" for line in lines)
