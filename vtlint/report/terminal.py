"""Text bound for a terminal or a CI log: file names, messages (which quote Source
names and the user's strings) and harness output may hold control characters, and an
escape sequence printed raw recolours, retitles or rewrites the terminal; bidi
overrides reorder what is shown. Each such character is shown escaped (`\x1b`,
`\u202e`), as Python's repr shows it; JSON and SARIF carry the text exactly."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from vtlint.check import CheckResult
from vtlint.report.shareable import rewritten

# C0 but tab and newline, DEL, C1, line/paragraph separators, bidi embeddings, overrides, isolates
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_UNSAFE_IN_A_LINE = re.compile(f"{_UNSAFE.pattern[:-1]}\t\n]")


def _escaped(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def escape(text: str) -> str:
    """`text` with every control character escaped but tab and newline."""
    return _UNSAFE.sub(_escaped, text) if _UNSAFE.search(text) else text


def one_line(text: str) -> str:
    """`text` as one line: also tab and newline escaped (an error message, a notification's path)."""
    return _UNSAFE_IN_A_LINE.sub(_escaped, text)


def _strings(value: Any) -> Any:
    if isinstance(value, str):
        return escape(value)
    if isinstance(value, dict):
        return {_strings(k): _strings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_strings(v) for v in value]
    return value


def for_terminal(result: CheckResult) -> CheckResult:
    """The result as text and GitHub annotations show it: every message and name escaped, every
    path also its tabs and newlines (one line per finding), the runtime summary's strings too."""
    return replace(rewritten(result, escape, _strings, one_line), missing=[one_line(m) for m in result.missing])
