"""What a report tells of the machine it was made on.

The walk inlines code of installed packages, so inline chains and notes can name
files under a virtualenv's site-packages by their absolute path. Reports are
shared (CI logs, code scanning), so such a file is shown by its path inside
site-packages: `<site-packages>/transformers/utils/generic.py`. The language
server keeps the absolute paths: there they are links the editor opens."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
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


Rewrite = Callable[[str], str]


@dataclass(frozen=True)
class _Rewrites:
    text: Rewrite  # messages, entry names
    path: Rewrite  # file paths


def _location(location: Location, fn: _Rewrites) -> Location:
    path = fn.path(location.path)
    return location if path == location.path else replace(location, path=path)


def _related(items: tuple[Related, ...], fn: _Rewrites) -> tuple[Related, ...]:
    return tuple(replace(r, location=_location(r.location, fn), message=fn.text(r.message)) for r in items)


def _finding(finding: Finding, fn: _Rewrites) -> Finding:
    fix = finding.fix and replace(finding.fix, description=fn.text(finding.fix.description))
    return replace(finding, location=_location(finding.location, fn), message=fn.text(finding.message),
                   related=_related(finding.related, fn), chain=_related(finding.chain, fn),
                   library=_related(finding.library, fn),
                   entry=finding.entry and fn.text(finding.entry), entries=tuple(fn.text(e) for e in finding.entries),
                   fix=fix)


def _entry_info(info: EntryInfo, fn: _Rewrites) -> EntryInfo:
    return replace(info, entry=fn.text(info.entry), location=_location(info.location, fn),
                   compiled_at=info.compiled_at and _location(info.compiled_at, fn),
                   called_at=tuple(_location(c, fn) for c in info.called_at))


def _notification(note: Notification, fn: _Rewrites) -> Notification:
    return replace(note, message=fn.text(note.message), location=note.location and _location(note.location, fn))


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


def rewritten(result: CheckResult, text: Rewrite, runtime: Callable[[dict[str, Any]], dict[str, Any]],
              path: Rewrite | None = None) -> CheckResult:
    """The result with `text` applied to every message and entry name a report shows, `path`
    (default: `text`) to every file path."""
    fn = _Rewrites(text, path or text)
    return replace(result, findings=[_finding(f, fn) for f in result.findings],
                   notifications=[_notification(n, fn) for n in result.notifications],
                   files=[fn.path(f) for f in result.files], entries=[_entry_info(e, fn) for e in result.entries],
                   texts={fn.path(name): source for name, source in result.texts.items()},
                   runtime=runtime(result.runtime))


def shareable(result: CheckResult) -> CheckResult:
    """The result with installed files named inside their install folder."""
    return rewritten(result, shorten, _runtime)


def openable(result: CheckResult) -> CheckResult:
    """The result as a terminal shows it: messages and entry names as `shareable` words them, file paths as
    they are, so that the terminal opens an installed file too (relative to the current folder when below it)."""
    return rewritten(result, shorten, _runtime, path=lambda path: path)
