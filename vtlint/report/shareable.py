"""What a report tells of the machine it was made on.

The walk inlines code of installed packages, so inline chains and notes can name
files under a virtualenv's site-packages by their absolute path. Reports are
shared (CI logs, code scanning), so such a file is shown by its path inside
site-packages: `<site-packages>/transformers/utils/generic.py`. The language
server keeps the absolute paths: there they are links the editor opens."""

from __future__ import annotations

import re
from dataclasses import replace

from vtlint.analyzer import EntryInfo
from vtlint.check import CheckResult
from vtlint.findings import Finding, Location, Notification, Related

# A path into an install folder, absolute or relative (`.venv/lib/...`, `../env/...`),
# starting where a word starts: the whole prefix goes, so nothing is glued to the token.
_INSTALLED = re.compile(r"(?<![^\s'\"`(\[=])(?:[A-Za-z]:)?(?:[^\s'\"`()<>:]*[/\\])?(?:site|dist)-packages[/\\]")
SHOWN = "<site-packages>"


def shorten(text: str) -> str:
    """Every path into an install folder, from the folder on: `<site-packages>/pkg/...`."""
    return _INSTALLED.sub(SHOWN + "/", text) if "-packages" in text else text


def _location(location: Location) -> Location:
    path = shorten(location.path)
    return location if path == location.path else replace(location, path=path)


def _related(items: tuple[Related, ...]) -> tuple[Related, ...]:
    return tuple(replace(r, location=_location(r.location), message=shorten(r.message)) for r in items)


def _entry(entry: str | None) -> str | None:
    return shorten(entry) if entry else entry


def _finding(finding: Finding) -> Finding:
    return replace(finding, location=_location(finding.location), message=shorten(finding.message),
                   related=_related(finding.related), chain=_related(finding.chain), entry=_entry(finding.entry),
                   entries=tuple(shorten(e) for e in finding.entries))


def _entry_info(info: EntryInfo) -> EntryInfo:
    return replace(info, entry=shorten(info.entry), location=_location(info.location))


def _notification(note: Notification) -> Notification:
    return replace(note, message=shorten(note.message), location=_location(note.location) if note.location else None)


def shareable(result: CheckResult) -> CheckResult:
    """The result with installed files named inside their install folder."""
    return replace(result, findings=[_finding(f) for f in result.findings],
                   notifications=[_notification(n) for n in result.notifications],
                   files=[shorten(f) for f in result.files], entries=[_entry_info(e) for e in result.entries],
                   texts={shorten(path): text for path, text in result.texts.items()})
