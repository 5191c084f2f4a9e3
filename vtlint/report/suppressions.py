"""`# noqa` comments: per line (`# noqa: VTL101, VTL2`), blanket (`# noqa`), and
per file (`# vtlint: noqa` or `# vtlint: noqa: VTL1`)."""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from vtlint.findings import Finding, Kind, Level, Location

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Za-z]+[0-9]*(?:[\s,]+[A-Za-z]+[0-9]*)*))?", re.IGNORECASE)
_FILE_NOQA = re.compile(r"#\s*vtlint\s*:\s*noqa(?::\s*(?P<codes>[A-Za-z]+[0-9]*(?:[\s,]+[A-Za-z]+[0-9]*)*))?", re.IGNORECASE)
_CODE = re.compile(r"[A-Za-z]+[0-9]*")
PREFIX = "VTL"


@dataclass
class LineNoqa:
    line: int
    column: int
    end_column: int
    codes: tuple[str, ...] | None  # None: blanket
    used: set[str] = field(default_factory=set)


@dataclass
class Suppressions:
    lines: dict[int, LineNoqa] = field(default_factory=dict)
    file_codes: tuple[str, ...] | None = ()  # None: the whole file; () nothing

    def suppresses(self, finding: Finding) -> bool:
        code = finding.code
        if self.file_codes is None or any(code.startswith(c) for c in self.file_codes):
            return True
        noqa = self.lines.get(finding.location.line)
        if noqa is None:
            return False
        if noqa.codes is None:
            noqa.used.add(code)
            return True
        for prefix in noqa.codes:
            if code.startswith(prefix):
                noqa.used.add(prefix)
                return True
        return False


def _codes(match: re.Match[str]) -> tuple[str, ...] | None:
    raw = match.group("codes")
    return None if raw is None else tuple(c.upper() for c in _CODE.findall(raw))


def _comments(text: str) -> list[tuple[int, int, str]]:
    """(line, column, text) of each comment, read with the tokenizer so that `# noqa`
    inside a string is not one; for text that does not tokenize, each line's `#` tail."""
    try:
        return [
            (tok.start[0], tok.start[1], tok.string)
            for tok in tokenize.generate_tokens(io.StringIO(text).readline)
            if tok.type == tokenize.COMMENT
        ]
    except (tokenize.TokenError, SyntaxError):
        comments = []
        for number, line in enumerate(text.splitlines(), 1):
            col = line.find("#")
            if col >= 0:
                comments.append((number, col, line[col:]))
        return comments


def parse_suppressions(text: str) -> Suppressions:
    result = Suppressions()
    if "noqa" not in text.lower():
        return result  # nothing to find: the tokenizer's pass over the file is skipped
    for line, col, comment in _comments(text):
        file_match = _FILE_NOQA.match(comment)
        if file_match:
            codes = _codes(file_match)
            if codes is None:
                result.file_codes = None
            elif result.file_codes is not None:
                result.file_codes = (*result.file_codes, *codes)
            continue
        match = _NOQA.search(comment)
        if match:
            result.lines[line] = LineNoqa(line, col + 1 + match.start(), col + 1 + match.end(), _codes(match))
    return result


def apply_suppressions(
    findings: list[Finding], texts: dict[str, str], report_unused: bool
) -> tuple[list[Finding], list[Finding]]:
    """Drop suppressed findings; with `report_unused`, return VTL901 findings for
    VTL codes in `# noqa` comments that suppressed nothing."""
    # Only files with findings can suppress one; every file when stale comments are reported.
    wanted = set(texts) if report_unused else {f.location.path for f in findings}
    parsed = {path: parse_suppressions(text) for path, text in texts.items() if path in wanted}
    kept = [f for f in findings if not (f.location.path in parsed and parsed[f.location.path].suppresses(f))]
    unused: list[Finding] = []
    if report_unused:
        for path, sup in sorted(parsed.items()):
            for noqa in sup.lines.values():
                if noqa.codes is None:
                    continue
                stale = [c for c in noqa.codes if c.startswith(PREFIX) and c not in noqa.used]
                if stale:
                    unused.append(
                        Finding(
                            code="VTL901",
                            kind=Kind.SUPPRESSION,
                            level=Level.WARNING,
                            location=Location(path, noqa.line, noqa.column, noqa.line, noqa.end_column),
                            message=f"Unused `noqa` directive (unused: {', '.join(stale)})",
                        )
                    )
    return kept, unused


def noqa_edit_text(line_text: str, code: str) -> str:
    """The line with `code` added to its `# noqa` comment (or a new one appended)."""
    stripped = line_text.rstrip("\r\n")
    ending = line_text[len(stripped):]
    match = _NOQA.search(stripped)
    if match and match.group("codes") is not None:
        codes = _codes(match) or ()
        if code in codes:
            return line_text
        new = f"# noqa: {', '.join([*codes, code])}"
        return stripped[: match.start()] + new + stripped[match.end():] + ending
    if match:
        return line_text
    return f"{stripped}  # noqa: {code}{ending}"
