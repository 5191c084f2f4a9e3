"""Terminal output in Ruff's style: `path:line:col: CODE message [evidence]`,
grouped by file and coloured on a TTY, then a summary line."""

from __future__ import annotations

from collections import Counter
from itertools import groupby
from pathlib import Path

from rich.console import Console
from rich.text import Text

from vtlint.analyzer.api import FILE_SKIPPED, UNFOLLOWED_COMPILE
from vtlint.check import CheckResult
from vtlint.findings import Finding, Kind, Level, Notification
from vtlint.report.groups import (EntryGroup, break_cause, by_cause, by_entry, constants_grouped, entries_of,
                                  note_causes, recompile_cause)
from vtlint.report.uris import installed
from vtlint.rules.registry import get_rule

# Findings about the run itself, not Dynamo decisions: no evidence to show.
META_KINDS = frozenset({Kind.SYNTAX_ERROR, Kind.IO_ERROR, Kind.SUPPRESSION})

_LEVEL_STYLE = {Level.ERROR: "bold red", Level.WARNING: "yellow", Level.NOTE: "cyan"}


def visible(result: CheckResult, show_notes: bool) -> list[Finding]:
    """Inlined calls (notes: an entrance, not a problem) and the notes of rules with
    `hidden_as` (VTL403: a built-in module's unchanged hyperparameters) are hidden from
    default text and annotation output; JSON, SARIF and the editor always carry them."""
    return [f for f in result.findings if show_notes or not _hidden_note(f)]


def shown(result: CheckResult, show_notes: bool, each_constant: bool = False) -> list[Finding]:
    """The lines a default report prints: the visible findings, the baked constants of one compiled entry
    (or of a package's frames reached at one project line) as one note unless `-v` / `--select VTL101`."""
    findings = visible(result, show_notes)
    return findings if show_notes or each_constant else constants_grouped(findings)


def _hidden_note(finding: Finding) -> bool:
    if finding.level is not Level.NOTE:
        return False
    rule = get_rule(finding.code)
    return finding.kind is Kind.INLINED_CALL or (rule is not None and rule.hidden_as is not None)


def _hidden_words(result: CheckResult) -> str:
    """`3 inlined calls and 12 built-in module notes`: what the default output left out."""
    counts: Counter[tuple[str, str]] = Counter()
    for finding in result.findings:
        if _hidden_note(finding):
            rule = get_rule(finding.code)
            counts[rule.hidden_as if rule and rule.hidden_as else ("inlined call", "inlined calls")] += 1
    return " and ".join(_plural(n, one, many) for (one, many), n in counts.items())


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
    if len(finding.entries) > 1 and not finding.members:  # one site, reached from several compiled entries
        names = ", ".join(terminal_path(e, root) for e in finding.entries)
        text.append(f" (from {len(finding.entries)} compiled entries: {names})", style="dim")
    return text


SHOWN_PLACES = 3  # a package's places printed under a finding reported at the project line that reaches them


def _places(finding: Finding, root: Path | None) -> list[Text]:
    """Under a finding of a package's frame: where Dynamo saw it, a path the terminal opens (on a terminal;
    inside `<site-packages>` in a shared log)."""
    if finding.members:
        return []
    lines = [Text(f"    in {terminal_path(p.location.path, root)}:{p.location.line}:{p.location.column}"
                  + (f" {p.message}" if p.message else ""), style="dim") for p in finding.library[:SHOWN_PLACES]]
    if len(finding.library) > SHOWN_PLACES:
        lines.append(Text(f"    and {len(finding.library) - SHOWN_PLACES} more places", style="dim"))
    return lines


def render(result: CheckResult, console: Console, *, show_notes: bool, grouped: bool, quiet: bool = False,
           each_constant: bool = False) -> None:
    """The findings; unless `quiet`, the summary (recompiles, breaks, the rest) and the
    runtime coverage after them."""
    findings = shown(result, show_notes, each_constant)
    for index, (_path, group) in enumerate(groupby(findings, key=lambda f: f.location.path) if grouped
                                           else [("", findings)]):
        if index:
            console.print()
        for finding in group:
            console.print(_line(finding, result.root), soft_wrap=True, highlight=False)
            for line in _places(finding, result.root):
                console.print(line, soft_wrap=True, highlight=False)
    if quiet:
        return
    for line in causes(result, show_notes):
        console.print(line, soft_wrap=True, highlight=False)
    console.print(summary(result, show_notes, each_constant), soft_wrap=True, highlight=False)
    if result.runtime:  # coverage of the runtime step: entries exercised, compiles, kernels
        from vtlint.runtime.summary import coverage_lines

        for line in coverage_lines(result.runtime):
            console.print(Text(line, style="dim"), soft_wrap=True, highlight=False)


SHOWN_ENTRIES = 10  # recompiling entries the default summary names; --statistics names them all
SHOWN_CAUSES = 5


def _plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def _places_of(groups: list[EntryGroup]) -> str:
    """`2 compiled entries`, `2 project lines reaching compiled packages`, or both."""
    sites = sum(g.site for g in groups)
    words = [_plural(len(groups) - sites, "compiled entry", "compiled entries") if len(groups) > sites else "",
             _plural(sites, "project line", "project lines") + " reaching installed packages" if sites else ""]
    return " and ".join(w for w in words if w)


def _recompile(finding: Finding, root: Path | None) -> str:
    if finding.library:  # at the project line the group is named after: which of the package's frames
        frames = entries_of(finding)
        if not finding.source and not finding.guard:  # a frame compiled N times (VTL402)
            return f"`{frames[0].rpartition(':')[2]}` {recompile_cause(finding).split(' (')[0]}"
        return recompile_cause(finding) + (f" in {len(frames)} compiled frames" if len(frames) > 1 else "")
    if not finding.source:  # a fact about the whole entry (the harness compiled it N times)
        return recompile_cause(finding)
    where = f"{terminal_path(finding.location.path, root)}:{finding.location.line}"
    every = " (every call)" if finding.code == "VTL112" else ""
    return f"{recompile_cause(finding)} at {where}{every}"


def causes(result: CheckResult, show_notes: bool) -> list[Text]:
    """What will recompile and why, per compiled entry, then the graph breaks by cause."""
    findings = visible(result, show_notes)
    groups = by_entry(findings)
    lines: list[Text] = []
    recompiling = [g for g in groups if g.recompiles]
    if recompiling:
        count = sum(f.kind is Kind.RECOMPILE for f in findings)
        lines.append(Text(f"What will recompile, and why ({_plural(count, 'recompile')} in "
                          f"{_places_of(recompiling)}):", style="bold"))
        for group in recompiling[:SHOWN_ENTRIES]:
            line = Text(f"  {terminal_path(group.entry, result.root)}: ", style="bold")
            line.append("; ".join(_recompile(f, result.root) for f in group.recompiles), style="")
            lines.append(line)
        if len(recompiling) > SHOWN_ENTRIES:
            lines.append(Text(f"  ... and {len(recompiling) - SHOWN_ENTRIES} more; --statistics lists them all.",
                              style="dim"))
    breaking = [g for g in groups if g.breaks]
    if breaking:
        counted = Counter(break_cause(f) for f in findings if f.kind is Kind.GRAPH_BREAK)
        shown = ", ".join(f"{cause} ×{n}" for cause, n in counted.most_common(SHOWN_CAUSES))
        more = f", and {_plural(len(counted) - SHOWN_CAUSES, 'other cause')}" if len(counted) > SHOWN_CAUSES else ""
        lines.append(Text(f"Graph breaks ({sum(counted.values())}, reached from {_places_of(breaking)}): ",
                          style="bold")
                     + Text(shown + more))
    return lines


def _unfollowed(notes: list[Notification]) -> str:
    """`could not follow 2 compiled entries (run.py:10, train.py:31)`: what is compiled there is not known."""
    places = [f"{n.location.path}:{n.location.line}" for n in notes if n.location is not None]
    more = len(places) - SHOWN_ENTRIES
    shown = ", ".join(places[:SHOWN_ENTRIES]) + (f", and {more} more" if more > 0 else "")
    return (f"could not follow {_plural(len(notes), 'compiled entry', 'compiled entries')} ({shown}): "
            "--entry FILE:Class.forward names what is compiled there, --runtime-command runs it")


def _runtime_saw(runtime: dict[str, object]) -> str | None:
    """`3 graph breaks and 12 recompiles in MixtralExperts.forward, …`: what the runtime saw break or
    recompile, whether or not a finding reports it (a frame no project call reaches); None when nothing."""
    entries = [e for e in runtime.get("entries") or [] if isinstance(e, dict)]
    breaks = sum(int(e.get("graph_breaks") or 0) for e in entries)
    recompiles = sum(max(int(e.get("compiles") or 0) - 1, 0) for e in entries)
    unlinked = sum(int(u.get("compiles") or 0) for u in runtime.get("unlinked") or [] if isinstance(u, dict))
    if not (breaks or recompiles or unlinked):
        return None
    saw = [w for n, w in ((breaks, _plural(breaks, "graph break")), (recompiles, _plural(recompiles, "recompile")))
           if n]
    named = [str(e.get("entry", "")).rpartition(":")[2] for e in entries if e.get("graph_breaks") or
             int(e.get("compiles") or 0) > 1]
    where = f" in {', '.join(f'`{n}`' for n in named[:3])}{', …' if len(named) > 3 else ''}" if named else ""
    also = f"{_plural(unlinked, 'compile')} of code no project call reaches" if unlinked else ""
    return " and ".join(filter(None, [" and ".join(saw) + where if saw else "", also]))


def _grouped_words(result: CheckResult, show_notes: bool, each_constant: bool) -> str:
    """`61 baked constants shown as 2 notes`: what the default output grouped."""
    if show_notes or each_constant:
        return ""
    groups = [f for f in shown(result, show_notes) if f.members]
    members = sum(len(f.members) for f in groups)
    return (f" {_plural(members, 'baked constant')} shown as {_plural(len(groups), 'note')}, grouped per "
            "compiled entry; -v or --select VTL101 lists each.") if groups else ""


def summary(result: CheckResult, show_notes: bool, each_constant: bool = False) -> Text:
    findings = visible(result, show_notes)
    # a torch.compile whose value the static pass could not follow: what it compiles is not checked
    unfollowed = [n for n in result.notifications if n.kind == UNFOLLOWED_COMPILE]
    hidden = len(result.findings) - len(findings)
    files = len(result.files)
    where = f"in {files} file{'s' if files != 1 else ''}"
    if result.entries:
        where += f", {_plural(len(result.entries), 'compiled entry', 'compiled entries')}"
    if not files:
        text = Text("No Python files analyzed.", style="yellow")
    elif not findings and result.missing:  # an error above: never an all-clear after it
        text = Text(f"No findings {where}; {_plural(len(result.missing), 'given path')} not found.", style="yellow")
    elif not findings and any(n.level is Level.ERROR for n in result.notifications):
        text = Text(f"No findings {where}, but the run has errors (above).", style="yellow")
    elif not findings and (skipped := [n for n in result.notifications if n.kind == FILE_SKIPPED]):
        text = Text(f"No findings {where}, but {_plural(len(skipped), 'file was', 'files were')} not analyzed "
                    "(above).", style="yellow")
    elif not findings and unfollowed:
        text = Text(f"No findings {where}, but {_unfollowed(unfollowed)}.", style="yellow")
    elif not findings and (saw := _runtime_saw(result.runtime)):
        text = Text(f"No findings {where}, but at runtime torch saw {saw} (the runtime summary below).",
                    style="yellow")
    elif not findings:
        text = Text(f"All checks passed {where}.", style="green")
    else:
        kinds = Counter(f.kind.value for f in findings)
        detail = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
        text = Text(f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} ({detail}) {where}.", style="bold")
        if unfollowed:
            said = _unfollowed(unfollowed)
            text.append(f" {said[0].upper()}{said[1:]}.", style="yellow")
    text.append(_grouped_words(result, show_notes, each_constant), style="dim")
    if hidden:
        text.append(f" {_hidden_words(result)} hidden; --show-notes shows them.", style="dim")
    notes = note_causes([n for n in result.notifications if n.kind != UNFOLLOWED_COMPILE])
    if notes and not show_notes:
        detail = ", ".join(f"{cause} ×{n}" for cause, n in notes.most_common(SHOWN_CAUSES))
        text.append(f" {_plural(sum(notes.values()), 'note')} on what the static pass cannot resolve ({detail}); "
                    "-v shows them.", style="dim")
    return text


def statistics(result: CheckResult, console: Console, show_notes: bool) -> None:
    """Counts per cause (recompiles, breaks, the rest), per compiled entry, per code."""
    findings = visible(result, show_notes)
    for kind, counted in by_cause(findings):
        console.print(Text(f"{kind.value}:", style="bold"), highlight=False)
        for cause, count in sorted(counted.items(), key=lambda kv: (-kv[1], kv[0])):
            name = result.rules[cause].name if cause in result.rules else ""
            console.print(f"{count:5d}  {cause}{'  ' + name if name else ''}", highlight=False, soft_wrap=True)
    groups = by_entry(findings)
    if groups:
        console.print(Text("per compiled entry (recompiles, graph breaks, findings):", style="bold"), highlight=False)
        for group in groups:
            total = sum(group.kinds.values())
            console.print(f"{len(group.recompiles):5d} {len(group.breaks):5d} {total:5d}  "
                          f"{terminal_path(group.entry, result.root)}", highlight=False, soft_wrap=True)
    console.print(Text("per code:", style="bold"), highlight=False)
    counts = Counter(f.code for f in findings)
    for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        rule = result.rules.get(code)
        console.print(f"{count:5d}  {code:<8}  {rule.name if rule else ''}", highlight=False)
    notes = note_causes(result.notifications)
    if notes:
        console.print(Text("notes (-v lists them):", style="bold"), highlight=False)
        for cause, count in notes.most_common():
            console.print(f"{count:5d}  {cause}", highlight=False, soft_wrap=True)
