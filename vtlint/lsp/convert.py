"""Findings in the language of the Language Server Protocol: diagnostics, hover
Markdown and code actions. Pure functions over Finding and the document's lines,
so that they can be tested without a server."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path
from pygls.workspace import PositionCodec

from vtlint.bounded import MAX_SOURCE_BYTES, read_text
from vtlint.findings import Evidence, Finding, Kind, Level, Location, Related
from vtlint.report.groups import constants_grouped
from vtlint.report.suppressions import noqa_edit_text
from vtlint.rules.base import Rule, gb_url

SOURCE = "vtlint"

_LEVEL_SEVERITY = {
    Level.ERROR: types.DiagnosticSeverity.Error,
    Level.WARNING: types.DiagnosticSeverity.Warning,
    Level.NOTE: types.DiagnosticSeverity.Information,
}
SEVERITY_NAMES = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}
_EVIDENCE_WORDS = {
    Evidence.CONFIRMED: "confirmed at runtime",
    Evidence.REFUTED: "refuted at runtime: the code ran and Dynamo did not do this",
    Evidence.RUNTIME_ONLY: "seen at runtime only; the static pass missed it",
}


def severity_for(finding: Finding, overrides: Mapping[str, str]) -> types.DiagnosticSeverity:
    """The rule's level unless the editor settings name the code (longest prefix wins)."""
    best = ""
    for prefix in overrides:
        if finding.code.startswith(prefix.upper()) and len(prefix) > len(best):
            best = prefix
    if best and overrides[best].lower() in SEVERITY_NAMES:
        return SEVERITY_NAMES[overrides[best].lower()]
    return _LEVEL_SEVERITY[finding.level]


def server_range(location: Location, lines: Sequence[str]) -> types.Range:
    """1-based, end-exclusive code-point columns -> a 0-based LSP range (code points).
    A point location spans the rest of the line's code, so that it can be seen."""
    line = max(location.line - 1, 0)
    start = types.Position(line, max(location.column - 1, 0))
    end_line, end_column = location.end
    if (end_line, end_column) > (location.line, location.column):
        return types.Range(start, types.Position(max(end_line - 1, 0), max(end_column - 1, 0)))
    text = lines[line].rstrip("\r\n") if line < len(lines) else ""
    stop = len(text.rstrip())
    if stop <= start.character:
        stop = start.character + 1
    return types.Range(start, types.Position(line, stop))


def uri_for(path: str, root: Path) -> str:
    """A finding's display path (relative to the project root) as an absolute file URI,
    `..` resolved: `root/../env/x.py` is not a link an editor opens."""
    candidate = Path(path)
    return from_fs_path(os.path.normpath(candidate if candidate.is_absolute() else root / candidate)) or ""


def message(finding: Finding) -> str:
    words = _EVIDENCE_WORDS.get(finding.evidence)
    return f"{finding.message} ({words})" if words else finding.message


def _related(finding: Finding, root: Path, lines_of: LinesOf) -> list[types.DiagnosticRelatedInformation]:
    infos = []
    for what, items in (("where Dynamo saw it: ", finding.library), ("", finding.related),
                        ("inline chain: ", finding.chain)):
        for item in items:
            uri = uri_for(item.location.path, root)
            infos.append(types.DiagnosticRelatedInformation(types.Location(uri, lines_of.range(item.location)), what + item.message))
    return infos


class LinesOf:
    """The lines of a file by display path (an open buffer, else the file on disk),
    and ranges in the client's position units (UTF-16 unless negotiated otherwise)."""

    def __init__(self, root: Path, buffers: Mapping[str, str], codec: PositionCodec | None = None) -> None:
        self.root = root
        self.buffers = buffers
        self.codec = codec or PositionCodec()
        self._cache: dict[str, list[str]] = {}

    def range(self, location: Location) -> types.Range:
        lines = self(location.path)
        rng = server_range(location, lines)
        if rng.end.line < len(lines) and lines[rng.start.line].isascii() and lines[rng.end.line].isascii():
            return rng  # code points are code units on an ASCII line: nothing to count (hundreds per lint)
        return self.codec.range_to_client_units(lines, rng)

    def edit_range(self, location: Location) -> types.Range:
        """An edit replaces exactly its span; a point location is an insertion."""
        start = types.Position(location.line - 1, location.column - 1)
        end_line, end_column = location.end
        end = types.Position(end_line - 1, end_column - 1)
        return self.codec.range_to_client_units(self(location.path), types.Range(start, end))

    def __call__(self, path: str) -> list[str]:
        if path not in self._cache:
            text = self.buffers.get(path)
            if text is None:
                try:  # a regular file of a source's size: a FIFO or device put there since the lint is not read
                    text = read_text(self.root / path, MAX_SOURCE_BYTES, errors="replace")
                except OSError:
                    text = ""
            self._cache[path] = text.splitlines(keepends=True)
        return self._cache[path]


def to_diagnostic(
    finding: Finding,
    rule: type[Rule] | None,
    root: Path,
    lines_of: LinesOf,
    severity_overrides: Mapping[str, str],
) -> types.Diagnostic:
    url = gb_url(finding.gb_id) if finding.gb_id else (rule.doc_url() if rule else None)
    tags = [types.DiagnosticTag.Unnecessary] if finding.kind is Kind.SUPPRESSION else None
    return types.Diagnostic(
        range=lines_of.range(finding.location),
        message=message(finding),
        severity=severity_for(finding, severity_overrides),
        code=finding.code,
        code_description=types.CodeDescription(href=url) if url else None,
        source=SOURCE,
        related_information=_related(finding, root, lines_of) or None,
        tags=tags,
    )


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def names(finding: Finding, word: str) -> bool:
    """Whether the finding's Source ends in `word`: hovering `n` in `y * n + cfg.scale`
    is about `L['n']`, hovering `scale` about `L['cfg'].scale`."""
    if not word or not finding.source:
        return False
    return _IDENTIFIER.findall(finding.source)[-1:] == [word]


_GUARDED_VALUE = re.compile(r"(?:==|is) (.+)$")


def _value(finding: Finding) -> str:
    """` == 1e-05`: the value a baked constant's guard checks, when it names one."""
    found = _GUARDED_VALUE.search(finding.guard or "")
    return f" `{found.group(0)}`" if found else ""


def _link(related: Related) -> str:
    """`path:line` and its message; a link the editor opens for a file named by its absolute path (an
    installed package's: project files are named relative to the root, which the hover does not know)."""
    where = f"{related.location.path}:{related.location.line}"
    shown = f"`{where}`"
    if os.path.isabs(related.location.path):
        shown = f"[{where}]({from_fs_path(related.location.path)}#L{related.location.line})"
    return f"{shown} {related.message}".rstrip()


def grouped(findings: list[Finding]) -> list[Finding]:
    """The diagnostics of a file: the baked constants of a package's frames reached at one line as one, the
    list in its hover (a project's own stay on their lines)."""
    return constants_grouped(findings, project=False)


def hover_markdown(finding: Finding, rule: type[Rule] | None) -> str:
    """What Dynamo will do here, in its own vocabulary (the diagnostic's own message
    is shown by the editor beside it)."""
    title = f"**{finding.code}** `{rule.name if rule else finding.kind.value}`"
    parts = [title, ""]
    facts = [
        ("VariableTracker", finding.variable_tracker),
        ("Source", finding.source),
        ("Guard", finding.guard),
        ("Graph break", f"[{finding.gb_id}]({gb_url(finding.gb_id)})" if finding.gb_id else None),
        ("Compiled entry", finding.entry),
        ("Evidence", f"{finding.evidence.value} (confidence: {finding.confidence})"),
    ]
    for name, value in facts:
        if value:
            shown = value if name in ("Graph break", "Evidence") else f"`{value}`"
            parts.append(f"- {name}: {shown}")
    if finding.members:
        parts += ["", f"{len(finding.members)} values (-v or `--select VTL101` lists each):", ""]
        parts += [f"- `{m.source or m.code}`{_value(m)}" + (f" in {_link(m.library[0])}" if m.library else "")
                  for m in finding.members]
    elif finding.library:
        parts += ["", "Where Dynamo saw it (an installed package, reached from this line):", ""]
        parts += [f"- {_link(r)}" for r in finding.library]
    if finding.chain:
        parts += ["", "Inline chain (UserFunctionVariable calls from the entry):", ""]
        parts += [f"{i}. {_link(r)}" for i, r in enumerate(finding.chain, 1)]
    if finding.related:
        parts += ["", "Related:", ""]
        parts += [f"- {_link(r)}" for r in finding.related]
    if finding.runtime:
        parts += ["", "Runtime:", ""]
        parts += [f"- {key}: `{value}`" for key, value in sorted(finding.runtime.items()) if value not in (None, "")]
    if finding.fix:
        parts += ["", f"Fix: {finding.fix.description}"]
    if rule:
        parts += ["", f"[{finding.code} documentation]({rule.doc_url()})"]
    return "\n".join(parts)


def contains(rng: types.Range, pos: types.Position) -> bool:
    start, end = (rng.start.line, rng.start.character), (rng.end.line, rng.end.character)
    return start <= (pos.line, pos.character) <= end


def noqa_action(finding: Finding, uri: str, lines_of: LinesOf, diagnostic: types.Diagnostic | None) -> types.CodeAction | None:
    """`# noqa: CODE` appended to (or merged into) the finding's line."""
    lines = lines_of(finding.location.path)
    index = finding.location.line - 1
    if not 0 <= index < len(lines):
        return None
    old = lines[index]
    new = noqa_edit_text(old, finding.code)
    if new == old:
        return None
    whole_line = types.Range(types.Position(index, 0), types.Position(index, len(old.rstrip("\r\n"))))
    edit = types.TextEdit(lines_of.codec.range_to_client_units(lines, whole_line), new.rstrip("\r\n"))
    return types.CodeAction(
        title=f"Suppress {finding.code} on this line (# noqa)",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic] if diagnostic else None,
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )


def fix_action(finding: Finding, root: Path, lines_of: LinesOf, diagnostic: types.Diagnostic | None) -> types.CodeAction | None:
    """The finding's remedy, offered only when the rule marks it safe and it has edits."""
    fix = finding.fix
    if fix is None or not fix.safe or not fix.edits:
        return None
    changes: dict[str, list[types.TextEdit]] = {}
    for edit in fix.edits:
        text_edit = types.TextEdit(lines_of.edit_range(edit.location), edit.replacement)
        changes.setdefault(uri_for(edit.location.path, root), []).append(text_edit)
    return types.CodeAction(
        title=f"{finding.code}: {fix.description}",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic] if diagnostic else None,
        edit=types.WorkspaceEdit(changes=changes),
        is_preferred=True,
    )
