"""`--format html`: one self-contained page per run (inline CSS, no script, no
network). Each compiled entry's code is drawn with its graphs as coloured segments,
split where Dynamo breaks the graph; baked constants and their guards are marked on
their line, recompiles name the site that changes the value, inlined calls expand to
the callee's code, and each mark carries its evidence (predicted, confirmed, ...)."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from html import escape
from typing import Any

from vtlint import __version__
from vtlint.analyzer import EntryInfo
from vtlint.check import CheckResult
from vtlint.findings import Finding, Kind
from vtlint.report.groups import EntryGroup, break_cause, by_entry, entries_of, note_causes, recompile_cause

SHOWN_ENTRIES = 200  # a page a browser still opens quickly; the rest are counted
_URL = re.compile(r"\s*https?://\S+")
_INLINED = re.compile(r"^`([^`]+)` is inlined")
_CONSTANT_KINDS = (Kind.BAKED_CONSTANT,)


@dataclass
class _Line:
    number: int
    text: str
    graph: int  # 1-based graph the line is traced into; 0: the line that breaks it
    marks: list[Finding] = field(default_factory=list)  # constants underlined in the line
    notes: list[str] = field(default_factory=list)  # rendered annotations under the line


def render_html(result: CheckResult) -> str:
    try:
        return _render(result)
    finally:
        _functions.cache_clear()  # the parsed texts are the run's, not the process's


def _render(result: CheckResult) -> str:
    texts = result.texts
    groups = {g.entry: g for g in by_entry(result.findings)}
    infos = sorted(result.entries, key=lambda e: groups[e.entry].rank if e.entry in groups
                   else (0, 0, 0, e.entry))
    runtime = {e.get("entry"): e for e in (result.runtime.get("entries") or [])} if result.runtime else {}
    sections = [_entry(info, groups.get(info.entry), result, texts, runtime.get(info.entry))
                for info in infos[:SHOWN_ENTRIES]]
    if len(infos) > SHOWN_ENTRIES:
        sections.append(f"<p class='more'>{len(infos) - SHOWN_ENTRIES} more compiled entries are in the "
                        "JSON and SARIF reports.</p>")
    loose = [f for f in result.findings if not entries_of(f)]
    if loose:
        sections.append("<section class='entry'><h2>Findings outside any compiled entry</h2><ul class='list'>"
                        + "".join(f"<li>{_where(f)} {_badge(f)} {_msg(f)}</li>" for f in loose) + "</ul></section>")
    return _PAGE.format(style=_STYLE, version=escape(__version__), header=_header(result, infos, groups),
                        body="\n".join(sections))


# -- the page header: counts, what recompiles, the entries -----------------------


def _header(result: CheckResult, infos: list[EntryInfo], groups: dict[str, EntryGroup]) -> str:
    kinds: dict[str, int] = defaultdict(int)
    for f in result.findings:
        kinds[f.kind.value] += 1
    counts = "".join(f"<span class='pill k-{escape(k)}'>{n} {escape(k)}</span>" for k, n in sorted(kinds.items()))
    torch = f" · torch {escape(result.torch_version)}" if result.torch_version else ""
    notes = sum(note_causes(result.notifications).values())
    noted = f" · {notes} notes on values the static pass cannot resolve" if notes else ""
    toc = _toc(infos[:SHOWN_ENTRIES], groups)
    recompiling = [g for g in groups.values() if g.recompiles]
    why = "".join(
        f"<li><a href='#{_anchor(g.entry)}'>{escape(g.entry)}</a>: "
        + "; ".join(f"{escape(recompile_cause(f))} at <code>{escape(f.location.path)}:{f.location.line}</code>"
                    for f in g.recompiles) + "</li>"
        for g in sorted(recompiling, key=lambda g: g.rank))
    recompile_box = f"<div class='box recompile'><h3>What will recompile, and why</h3><ul>{why}</ul></div>" if why else ""
    return (f"<header><h1>vtlint report</h1><p class='meta'>{len(result.files)} files · {len(infos)} compiled "
            f"entries{torch}{noted}</p><p>{counts}</p>{recompile_box}"
            f"<nav><h3>Compiled entries</h3>{toc}</nav>{_legend()}</header>")


def _toc(infos: list[EntryInfo], groups: dict[str, EntryGroup]) -> str:
    """The entries by file, each by its qualified name: long paths are said once."""
    by_file: dict[str, list[EntryInfo]] = defaultdict(list)
    for info in infos:
        by_file[info.location.path].append(info)
    return "<div class='toc'>" + "".join(
        f"<div class='file'><code class='path'>{escape(path)}</code><ul>" + "".join(
            f"<li><a href='#{_anchor(i.entry)}'>{escape(i.entry.rsplit(':', 1)[-1])}</a>"
            f"{_toc_badges(groups.get(i.entry))}</li>" for i in entries) + "</ul></div>"
        for path, entries in sorted(by_file.items())) + "</div>"


def _toc_badges(group: EntryGroup | None) -> str:
    if group is None:
        return " <span class='pill ok'>one graph</span>"
    parts = []
    if group.recompiles:
        parts.append(f"<span class='pill k-recompile'>{len(group.recompiles)} recompile</span>")
    if group.breaks:
        parts.append(f"<span class='pill k-graph-break'>{len(group.breaks)} break</span>")
    return " " + "".join(parts)


def _legend() -> str:
    swatches = "".join(f"<span class='ln g{i}'><code>graph {i}</code></span>" for i in range(1, 4))
    return (f"<p class='legend'>{swatches}<span class='ln g0'><code>graph break: runs eagerly</code></span>"
            "<mark class='const'>baked constant</mark></p>")


# -- one compiled entry -------------------------------------------------------


def _entry(info: EntryInfo, group: EntryGroup | None, result: CheckResult, texts: dict[str, str],
           runtime: dict[str, Any] | None) -> str:
    mine = [f for f in result.findings if info.entry in entries_of(f)]
    path = info.location.path
    start, end = _span(texts.get(path, ""), info.location.line)
    lines = _lines(texts.get(path, ""), start, end, mine, info)
    inside = {id(f) for line in lines for f in line.marks} | _placed(mine, path, start, end)
    elsewhere = [f for f in mine if id(f) not in inside and f.kind is not Kind.RECOMPILE]
    options = ", ".join(f"{k}={v}" for k, v in sorted(info.options.items()))
    graphs = max((line.graph for line in lines), default=1)
    facts = _runtime(runtime)
    head = (f"<h2 id='{_anchor(info.entry)}'>{escape(info.entry)}</h2><p class='meta'>compiled by "
            f"{escape(info.how)}{' (' + escape(options) + ')' if options else ''} · predicted: {graphs} "
            f"graph{'s' if graphs != 1 else ''}{facts}</p>")
    parts = [head, _recompiles(group, texts), _code(lines)]
    if elsewhere:
        parts.append("<h3>Reached through inlined calls</h3><ul class='list'>" + "".join(
            f"<li>{_where(f)} {_badge(f)} {_msg(f)}{_snippet(texts, f)}</li>" for f in elsewhere) + "</ul>")
    if group is None and not mine:  # nothing to report: one graph, kept folded
        return (f"<section class='entry clean'><details><summary>{head}</summary>{''.join(parts[1:])}"
                "</details></section>")
    return "<section class='entry'>" + "".join(parts) + "</section>"


def _runtime(runtime: dict[str, Any] | None) -> str:
    if not runtime:
        return ""
    breaks = int(runtime.get("graph_breaks") or 0)
    return (f" · <span class='pill ev-confirmed'>runtime: {int(runtime.get('compiles') or 0)} compiles, "
            f"{int(runtime.get('graph_count') or 0)} graphs, {breaks} graph breaks</span>")


def _recompiles(group: EntryGroup | None, texts: dict[str, str]) -> str:
    if group is None or not group.recompiles:
        return ""
    items = "".join(f"<li>{_badge(f)} {_msg(f)}{_snippet(texts, f, 'changes here')}</li>" for f in group.recompiles)
    return f"<div class='box recompile'><h3>Recompiles</h3><ul class='list'>{items}</ul></div>"


def _split_line(finding: Finding, path: str, start: int, end: int) -> int | None:
    """The entry's line where a break splits the graph: the break itself, or the call
    into the helper that breaks."""
    for place in (finding.location, *(r.location for r in finding.chain)):
        if place.path == path and start <= place.line <= end:
            return place.line
    return None


def _placed(findings: list[Finding], path: str, start: int, end: int) -> set[int]:
    """The findings drawn inside the entry's code (breaks at their split line, inlined calls at theirs)."""
    return {id(f) for f in findings if f.kind in (Kind.GRAPH_BREAK, Kind.INLINED_CALL)
            and _split_line(f, path, start, end) is not None}


def _lines(text: str, start: int, end: int, findings: list[Finding], info: EntryInfo) -> list[_Line]:
    source = text.splitlines()
    path = info.location.path
    splits: dict[int, list[Finding]] = defaultdict(list)
    for f in findings:
        if f.kind is Kind.GRAPH_BREAK:
            line = _split_line(f, path, start, end)
            if line is not None:
                splits[line].append(f)
    lines, graph = [], 1
    for number in range(start, min(end, len(source)) + 1):
        broken = number in splits
        lines.append(_Line(number, source[number - 1], 0 if broken else graph))
        if broken:
            lines[-1].notes += [f"<div class='ann break'>{_badge(f)} <b>{escape(break_cause(f))}</b>: graph {graph} "
                                f"ends here, this line runs eagerly, graph {graph + 1} resumes after it"
                                f"{_via(f, number)}</div>" for f in splits[number]]
            graph += 1
    by_line = {line.number: line for line in lines}
    for f in findings:
        line = by_line.get(f.location.line) if f.location.path == path else None
        if line is None:
            continue
        if f.kind in _CONSTANT_KINDS:
            line.marks.append(f)
            guard = f" · guard <code>{escape(f.guard)}</code>" if f.guard else ""
            line.notes.append(f"<div class='ann const'>{_badge(f)} <code>{escape(f.source or '')}</code> "
                              f"{escape(_short(f.message))}{guard}</div>")
        elif f.kind is Kind.INLINED_CALL:
            line.notes.append(_inlined(f, path, text))
        elif f.kind is Kind.RECOMPILE:
            line.notes.append(f"<div class='ann recompile'>{_badge(f)} {_msg(f)}</div>")
    return lines


def _via(finding: Finding, line: int) -> str:
    if finding.location.line == line and not finding.chain:
        return ""
    return f" (inside the inlined call: the break is at <code>{escape(finding.location.path)}:{finding.location.line}</code>)"


def _inlined(finding: Finding, path: str, text: str) -> str:
    name = _INLINED.match(finding.message)
    body = _callee(name.group(1) if name else "", text)
    shown = f"<pre>{escape(body)}</pre>" if body else "<p class='meta'>(the callee's code is not in the analyzed files)</p>"
    return f"<details class='ann inline'><summary>{_badge(finding)} {_msg(finding)}</summary>{shown}</details>"


def _callee(name: str, text: str) -> str:
    """The source of the inlined function, looked up by its last name in the entry's file."""
    last = name.split(".")[-1]
    for node in _functions(text):
        if node.name == last:
            lines = text.splitlines()
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            return "\n".join(lines[first - 1:node.end_lineno or node.lineno])
    return ""


# -- code and text helpers ------------------------------------------------------


@cache
def _functions(text: str) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _span(text: str, line: int) -> tuple[int, int]:
    """First and last line of the function whose `def` (or a decorator) is at `line`."""
    for node in _functions(text):
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        if line in (node.lineno, first):
            return first, node.end_lineno or node.lineno
    return line, line


def _code(lines: list[_Line]) -> str:
    rows = []
    for line in lines:
        rows.append(f"<div class='ln g{_colour(line.graph)}'><span class='no'>{line.number}</span>"
                    f"<code>{_marked(line)}</code></div>")
        rows += line.notes
    return "<div class='code'>" + "".join(rows) + "</div>"


def _colour(graph: int) -> int:
    return 0 if graph == 0 else (graph - 1) % 6 + 1


def _marked(line: _Line) -> str:
    """The line with each baked constant underlined (overlapping spans: the first one)."""
    text, out, at = line.text, [], 0
    spans = sorted(((f.location.column - 1, f.location.end[1] - 1 if f.location.end[0] == line.number else len(text), f)
                    for f in line.marks), key=lambda s: (s[0], -s[1]))
    for begin, end, finding in spans:
        if begin < at or end <= begin:
            continue
        out += [escape(text[at:begin]), f"<mark class='const' title='{escape(finding.guard or '', quote=True)}'>",
                escape(text[begin:end]), "</mark>"]
        at = end
    out.append(escape(text[at:]))
    return "".join(out) or "&nbsp;"


def _snippet(texts: dict[str, str], finding: Finding, label: str = "") -> str:
    lines = texts.get(finding.location.path, "").splitlines()
    if not 0 < finding.location.line <= len(lines):
        return ""
    tag = f"<span class='meta'>{escape(label)}</span> " if label else ""
    return f"<pre class='snip'>{tag}{finding.location.line}  {escape(lines[finding.location.line - 1].strip())}</pre>"


def _where(finding: Finding) -> str:
    return f"<code>{escape(finding.location.path)}:{finding.location.line}:{finding.location.column}</code>"


def _badge(finding: Finding) -> str:
    return (f"<span class='rule k-{escape(finding.kind.value)}'>{escape(finding.code)}</span>"
            f"<span class='ev ev-{escape(finding.evidence.value)}'>{escape(finding.evidence.value)}</span>")


def _msg(finding: Finding) -> str:
    return escape(_URL.sub("", finding.message))


def _short(message: str) -> str:
    """`is baked into the graph as 3` out of the constant's message."""
    text = _URL.sub("", message)
    head = text.split(":", 1)[0]
    return head.split("` ", 1)[1] if "` " in head else head


def _anchor(entry: str) -> str:
    return "e-" + re.sub(r"[^A-Za-z0-9_-]+", "-", entry)


_STYLE = """
:root { --fg:#1f2328; --dim:#656d76; --line:#d0d7de; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
body { margin: 0 auto; max-width: 1100px; padding: 24px; color: var(--fg); background: #f6f8fa; }
h1 { margin: 0 0 4px; font-size: 24px; } h2 { font-size: 17px; margin: 0 0 4px; font-family: ui-monospace, monospace; }
h3 { font-size: 14px; margin: 12px 0 6px; }
header, section.entry { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 20px; margin-bottom: 16px; }
.meta { color: var(--dim); font-size: 13px; margin: 2px 0 8px; }
.pill { display: inline-block; border-radius: 10px; padding: 1px 8px; margin: 0 4px 4px 0; font-size: 12px; background: #eaeef2; }
.k-recompile { background: #ffe2cc; color: #953800; } .k-graph-break { background: #ffd7d5; color: #a40e26; }
.k-baked-constant { background: #fff1c2; color: #7d4e00; } .k-inlined-call { background: #ddf4ff; color: #0550ae; }
.ok { background: #dafbe1; color: #116329; }
.toc { columns: 2; column-gap: 24px; font-size: 13px; } .toc .file { break-inside: avoid; margin-bottom: 8px; }
.toc .path { color: var(--dim); font-size: 12px; word-break: break-all; }
.toc ul { margin: 2px 0; padding-left: 18px; } .toc a { font-family: ui-monospace, monospace; }
section.clean { padding: 8px 20px; } section.clean summary { cursor: pointer; list-style-position: outside; }
section.clean summary h2, section.clean summary p { display: inline; margin-right: 10px; }
.box { border-radius: 6px; padding: 4px 14px; margin: 8px 0; }
.box.recompile { background: #fff8f2; border: 1px solid #ffb77c; }
.code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; }
.ln { display: flex; white-space: pre; border-left: 6px solid transparent; }
.ln code { font-family: inherit; }
.no { width: 44px; color: var(--dim); text-align: right; padding-right: 10px; user-select: none; flex: none; }
.g1 { background: #eef6ff; border-left-color: #54aeff; } .g2 { background: #eefbf0; border-left-color: #4ac26b; }
.g3 { background: #f7f0ff; border-left-color: #a475f9; } .g4 { background: #fff8e6; border-left-color: #d4a72c; }
.g5 { background: #e9fbfb; border-left-color: #20b2aa; } .g6 { background: #fdf0f7; border-left-color: #e85aad; }
.g0 { background: #ffebe9; border-left-color: #cf222e; }
mark.const { background: #ffd33d; border-radius: 2px; padding: 0 1px; }
.ann { margin: 2px 0 4px 50px; padding: 3px 8px; font-family: system-ui, sans-serif; font-size: 12.5px; border-radius: 4px; white-space: normal; }
.ann.const { background: #fffbdd; } .ann.break { background: #ffebe9; color: #82071e; }
.ann.recompile { background: #fff1e5; } .ann.inline { background: #f0f7ff; }
.ann.inline summary { cursor: pointer; } .ann pre { margin: 6px 0; font-size: 12px; }
span.rule { font-family: ui-monospace, monospace; font-size: 11.5px; border-radius: 4px; padding: 0 5px; margin-right: 4px; }
.ev { font-size: 11px; border: 1px solid var(--line); border-radius: 4px; padding: 0 5px; margin-right: 6px; color: var(--dim); }
.ev-confirmed { background: #dafbe1; color: #116329; border-color: #4ac26b; }
.ev-refuted { background: #eaeef2; text-decoration: line-through; }
.ev-runtime-only { background: #ddf4ff; color: #0550ae; }
.list { padding-left: 18px; font-size: 13px; } .list li { margin: 6px 0; }
pre.snip { background: #f6f8fa; padding: 3px 8px; border-radius: 4px; margin: 4px 0; font-size: 12px; }
.legend .ln { display: inline-flex; padding: 0 8px; margin-right: 8px; font-size: 12px; }
.legend mark { font-size: 12px; }
"""

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>vtlint report</title>
<meta name="generator" content="vtlint {version}"><style>{style}</style></head>
<body>{header}
{body}
</body></html>
"""
