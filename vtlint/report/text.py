"""Terminal output in Ruff's style: `path:line:col: CODE message [evidence]`,
grouped by file and coloured on a TTY, then a summary line."""

from __future__ import annotations

from collections import Counter
from itertools import groupby
from pathlib import Path

from rich.console import Console
from rich.text import Text

from vtlint.check import CheckResult
from vtlint.findings import Finding, Kind, Level
from vtlint.report.uris import installed

# Findings about the run itself, not Dynamo decisions: no evidence to show.
META_KINDS = frozenset({Kind.SYNTAX_ERROR, Kind.IO_ERROR, Kind.SUPPRESSION})

_LEVEL_STYLE = {Level.ERROR: "bold red", Level.WARNING: "yellow", Level.NOTE: "cyan"}


def visible(result: CheckResult, show_notes: bool) -> list[Finding]:
    """Inlined calls (notes: an entrance, not a problem) are hidden from default text
    and annotation output; JSON, SARIF and the editor always carry them."""
    return [f for f in result.findings if show_notes or not _hidden_note(f)]


def _hidden_note(finding: Finding) -> bool:
    return finding.kind is Kind.INLINED_CALL and finding.level is Level.NOTE


def terminal_path(path: str, root: Path | None) -> str:
    """A finding's path as a terminal shows it, relative to the current folder (as Ruff
    does, so it can be clicked), when the file is below it; else project-relative."""
    if root is None or installed(path) is not None:
        return path
    try:
        return (root / path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path


def _line(finding: Finding, root: Path | None) -> Text:
    loc = finding.location
    text = Text()
    text.append(terminal_path(loc.path, root), style="bold")
    text.append(f":{loc.line}:{loc.column}: ", style="dim")
    text.append(finding.code, style=_LEVEL_STYLE[finding.level])
    text.append(f" {finding.message}")
    if finding.kind not in META_KINDS:
        text.append(f" [{finding.evidence.value}]", style="dim")
    return text


def render(result: CheckResult, console: Console, *, show_notes: bool, grouped: bool, quiet: bool = False) -> None:
    """The findings; unless `quiet`, the summary line and the runtime coverage after them."""
    findings = visible(result, show_notes)
    if grouped:
        for index, (_path, group) in enumerate(groupby(findings, key=lambda f: f.location.path)):
            if index:
                console.print()
            for finding in group:
                console.print(_line(finding, result.root), soft_wrap=True, highlight=False)
    else:
        for finding in findings:
            console.print(_line(finding, result.root), soft_wrap=True, highlight=False)
    if quiet:
        return
    console.print(summary(result, show_notes), soft_wrap=True, highlight=False)
    if result.runtime:  # coverage of the runtime step: entries exercised, compiles, kernels
        from vtlint.runtime.summary import coverage_lines

        for line in coverage_lines(result.runtime):
            console.print(Text(line, style="dim"), soft_wrap=True, highlight=False)


def summary(result: CheckResult, show_notes: bool) -> Text:
    findings = visible(result, show_notes)
    hidden = len(result.findings) - len(findings)
    files = len(result.files)
    where = f"in {files} file{'s' if files != 1 else ''}"
    if not files:
        text = Text("No Python files analyzed.", style="yellow")
    elif not findings and result.missing:  # an error above: never an all-clear after it
        text = Text(f"No findings {where}; {_paths(len(result.missing))} not found.", style="yellow")
    elif not findings:
        text = Text(f"All checks passed {where}.", style="green")
    else:
        kinds = Counter(f.kind.value for f in findings)
        detail = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
        text = Text(f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} ({detail}) {where}.", style="bold")
    if hidden:
        text.append(f" {hidden} inlined call{'s' if hidden != 1 else ''} hidden; --show-notes shows them.", style="dim")
    return text


def _paths(count: int) -> str:
    return f"{count} given path{'s' if count != 1 else ''}"


def statistics(result: CheckResult, console: Console, show_notes: bool) -> None:
    counts = Counter(f.code for f in visible(result, show_notes))
    for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        rule = result.rules.get(code)
        console.print(f"{count:5d}  {code:<8}  {rule.name if rule else ''}", highlight=False)
