"""GitHub Actions workflow commands: one annotation per finding, one per run
notification. https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands

`file=` is relative to the repository root (where GitHub looks for it), not to
the project root; `col`/`endColumn` are given only for one-line spans, as GitHub
ignores them otherwise. Findings come most severe first: GitHub shows only the
first few annotations of each level per step."""

from __future__ import annotations

from pathlib import Path

from vtlint.check import CheckResult
from vtlint.findings import Finding, Level, Notification
from vtlint.report.groups import is_note
from vtlint.report.attribution import place_text
from vtlint.report.text import META_KINDS, SHOWN_PLACES, shown
from vtlint.report.uris import Paths

_COMMAND = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "notice"}


def escape_data(value: str) -> str:
    """The message part: `%`, CR and LF are the command syntax's own characters."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """A property value: also `:` and `,`, which end the property list and a property."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def _repo_path(display: str, paths: Paths | None) -> str:
    return (paths.repo_relative(display) if paths else None) or display


def annotation(finding: Finding, paths: Paths | None = None) -> str:
    loc = finding.location
    line = max(1, loc.line)
    end_line, end_col = max((line, max(1, loc.column)), (loc.end[0], max(1, loc.end[1])))
    props = [f"file={escape_property(_repo_path(loc.path, paths))}", f"line={line}", f"endLine={end_line}"]
    if end_line == line:
        props[2:2] = [f"col={max(1, loc.column)}"]
        props.append(f"endColumn={end_col}")
    props.append(f"title={escape_property(finding.code)}")
    message = f"{finding.code} {finding.message}"
    if finding.kind not in META_KINDS:
        message += f" [{finding.evidence.value}]"
    details = [f"in {place_text(r)}" for r in finding.library[:SHOWN_PLACES]]
    details += [f"{r.message} ({r.location.path}:{r.location.line})" for r in finding.related]
    if finding.fix is not None:
        details.append(f"fix: {finding.fix.description}")
    text = "\n".join([message, *details])
    return f"::{_COMMAND[finding.level]} {','.join(props)}::{escape_data(text)}"


def notification(note: Notification, paths: Paths | None = None) -> str:
    props = [f"title={escape_property('vtlint ' + note.kind)}"]
    if note.location is not None:
        where = escape_property(_repo_path(note.location.path, paths))
        props[:0] = [f"file={where}", f"line={max(1, note.location.line)}"]
    return f"::{_COMMAND[note.level]} {','.join(props)}::{escape_data(note.message)}"


def render_github(result: CheckResult, show_notes: bool = False, root: Path | None = None,
                  each_constant: bool = False) -> str:
    findings = shown(result, show_notes, each_constant)
    findings.sort(key=lambda f: -f.level.rank)  # stable: source order within a level
    paths = Paths.for_root(root) if root else None
    lines = [annotation(f, paths) for f in findings]
    lines += [notification(n, paths) for n in result.notifications if show_notes or not is_note(n)]
    lines += [f"::error title=vtlint::{escape_data(path)}: no such file or directory" for path in result.missing]
    return "".join(line + "\n" for line in lines)
