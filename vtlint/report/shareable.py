"""What a report tells of the machine it was made on.

The walk inlines code of installed packages, so inline chains and notes can name
files under a virtualenv's site-packages by their absolute path. Reports are
shared (CI logs, code scanning), so such a file is shown by its path inside
site-packages: `<site-packages>/transformers/utils/generic.py`. The language
server keeps the absolute paths: there they are links the editor opens."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

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


def _runtime(runtime: dict[str, Any]) -> dict[str, Any]:
    """The runtime summary: each exercised entry (an installed file checked explicitly:
    `<site-packages>/transformers/models/gpt2/modeling_gpt2.py:GPT2LMHeadModel.forward`,
    not `../.venv/lib/python3.11/site-packages/...`), the wrappers it was compiled as, and
    the compiled code no entry owns."""
    if not runtime:
        return runtime
    entries = [{**e, "entry": shorten(str(e.get("entry", ""))),
                "via": {code: shorten(str(where)) for code, where in (e.get("via") or {}).items()}}
               if isinstance(e, dict) else e for e in runtime.get("entries") or []]
    unlinked = [{**u, "file": shorten(str(u.get("file", "")))} if isinstance(u, dict) else u
                for u in runtime.get("unlinked") or []]
    return {**runtime, **({"entries": entries} if "entries" in runtime else {}),
            **({"unlinked": unlinked} if "unlinked" in runtime else {})}


def shareable(result: CheckResult) -> CheckResult:
    """The result with installed files named inside their install folder."""
    return replace(result, findings=[_finding(f) for f in result.findings],
                   notifications=[_notification(n) for n in result.notifications],
                   files=[shorten(f) for f in result.files], entries=[_entry_info(e) for e in result.entries],
                   texts={shorten(path): text for path, text in result.texts.items()},
                   runtime=_runtime(result.runtime))
