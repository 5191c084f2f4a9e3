"""Findings grouped the way a reader of a big run asks about them: what will
recompile and why first, then what breaks the graph, then the rest; per compiled
entry and per cause. The text summary, --statistics, JSON and HTML share it."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from vtlint.findings import Finding, Kind, Level, Notification, Related
from vtlint.report.attribution import config_place

_BREAK_HEAD = re.compile(r"^Graph break \((.*?)\): ")
_LOOP_BREAK = re.compile(r"^Graph break in a loop .*?caused by (GB\d{4} [^:]*):")
_NAMED = re.compile(r"`[^`]*`")
ORDER = (Kind.RECOMPILE, Kind.GRAPH_BREAK)  # the causes a summary leads with, in this order


@dataclass
class EntryGroup:
    """The findings of one compiled entry (a finding several entries reach counts for each)."""

    entry: str
    kinds: Counter[str] = field(default_factory=Counter)
    recompiles: list[Finding] = field(default_factory=list)
    breaks: list[Finding] = field(default_factory=list)
    site: bool = False  # `entry` is the project line reaching a package's compiled frames (`run.py:12`)

    @property
    def rank(self) -> tuple[int, int, int, str]:
        return (-len(self.recompiles), -len(self.breaks), -sum(self.kinds.values()), self.entry)


def entries_of(finding: Finding) -> tuple[str, ...]:
    return finding.entries or ((finding.entry,) if finding.entry else ())


def where_reached(finding: Finding) -> tuple[str, ...]:
    """The compiled entries a finding counts for; for one of a package's frames, reported at the project line
    that reaches them, that line (`run.py:12`): a dozen transformers frames are one place the user acts."""
    if finding.library:
        return (f"{finding.location.path}:{finding.location.line}",)
    return entries_of(finding)


def by_entry(findings: list[Finding]) -> list[EntryGroup]:
    """Entries (or the project lines reaching a package's frames) with the most recompiles, then breaks,
    then findings first."""
    groups: dict[str, EntryGroup] = {}
    for finding in findings:
        for entry in where_reached(finding):
            group = groups.setdefault(entry, EntryGroup(entry, site=bool(finding.library)))
            group.kinds[finding.kind.value] += 1
            if finding.kind is Kind.RECOMPILE:
                group.recompiles.append(finding)
            elif finding.kind is Kind.GRAPH_BREAK:
                group.breaks.append(finding)
    return sorted(groups.values(), key=lambda g: g.rank)


def break_cause(finding: Finding) -> str:
    """`GB0170 Data-dependent branching`: the registry id and type of a break."""
    head = _BREAK_HEAD.match(finding.message)
    if head:
        return head.group(1)
    loop = _LOOP_BREAK.match(finding.message)
    return f"{loop.group(1)} in a loop" if loop else (finding.gb_id or finding.code)


def recompile_cause(finding: Finding) -> str:
    """What changes: the Source whose guard fails (`L['n']`), or the rule's own first words
    without the entry's name (`was compiled 3 times by the harness`)."""
    if finding.source:
        return f"`{finding.source}`"
    failing = finding.guard or (finding.runtime.get("detail") or {}).get("failing_guard")
    if failing:
        return f"`{failing}`"
    head = finding.message.split(": ", 1)[0]
    named = f"`{finding.entry}` "
    return head[len(named):] if finding.entry and head.startswith(named) else head


def by_cause(findings: list[Finding]) -> list[tuple[Kind, Counter[str]]]:
    """Per kind, in reading order (recompiles, breaks, the rest), the count of each cause."""
    causes: dict[Kind, Counter[str]] = {}
    for finding in findings:
        if finding.kind is Kind.RECOMPILE:
            cause = recompile_cause(finding)
        elif finding.kind is Kind.GRAPH_BREAK:
            cause = break_cause(finding)
        else:
            cause = finding.code
        causes.setdefault(finding.kind, Counter())[cause] += 1
    rest = sorted((k for k in causes if k not in ORDER), key=lambda k: k.value)
    return [(kind, causes[kind]) for kind in (*ORDER, *rest) if kind in causes]


def is_note(note: Notification) -> bool:
    """A note about the static pass's own limits (an unresolved value, dynamic attribute
    access): counted in the summary, listed only on request."""
    return note.level is Level.NOTE


def note_cause(note: Notification) -> str:
    """`dynamic attribute access` out of "`getattr(...)` at x.py:9: dynamic attribute access, the values ..."."""
    tail = note.message.rsplit(": ", 1)[-1]
    return _NAMED.sub("`…`", tail.split(", ")[0].split("; ")[0].strip().rstrip("."))


def note_causes(notes: list[Notification]) -> Counter[str]:
    return Counter(note_cause(n) for n in notes if is_note(n))


# -- baked constants, one note per compiled entry -----------------------------------------------------

CONSTANT_CODES = ("VTL101", "VTL102")  # a value or a length baked into the graph behind its guard
SHOWN_OWNERS, SHOWN_ATTRIBUTES = 4, 4
SHOWN_FIELDS = 8  # of one config: its fields are the names a user sets
MIN_GROUP = 3  # fewer read better one by one
_LAST_STEP = re.compile(r"(?:\.[A-Za-z_]\w*|\[[^\[\]]*\])$")


def lists_constants(selectors: Iterable[str]) -> bool:
    """`--select VTL101` (or VTL10, VTL1): the user asks for the baked constants one by one."""
    return any(code.startswith(s.upper()) and len(s) > len("VTL") for s in selectors for code in CONSTANT_CODES)


def _changed(findings: list[Finding]) -> set[tuple[str, str]]:
    """(entry, Source) of every value a recompile finding says changes in the calls in sight."""
    return {(entry, f.source) for f in findings if f.kind is Kind.RECOMPILE and f.source for entry in entries_of(f)}


def _group_key(finding: Finding, project: bool, changed: set[tuple[str, str]]) -> tuple[object, ...] | None:
    """Constants reached at one project line in a package's frames group by that line; a project entry's
    own (`project`) by the entry. The evidence is part of the key: a group is confirmed or not as a whole.
    A constant the calls in sight change is not grouped: its recompile is the news, and it explains it."""
    if finding.kind is Kind.INLINED_CALL and finding.library:
        return ("calls", finding.location, finding.evidence)  # the package's own calls: where they run, not news
    if finding.code not in CONSTANT_CODES or finding.level is not Level.NOTE or \
            any((entry, finding.source) in changed for entry in entries_of(finding)):
        return None
    if finding.library:
        return ("site", finding.location, config_place(finding), finding.evidence)
    return ("entry", finding.entry, finding.evidence) if project and finding.entry else None


def constants_grouped(findings: list[Finding], *, project: bool = True) -> list[Finding]:
    """The findings as a default report shows them: the baked-constant notes (VTL101, VTL102) of one
    compiled entry, or of the frames of a package reached at one project line (those of the config the
    script built apart), as one note in place of the first, the rest in its `members` (`-v` or `--select
    VTL101` list each; SARIF and JSON carry each); so are the calls a package's frames inline (the editor
    shows notes the terminal hides). The hazards constants cause (a recompile, VTL111) are warnings of their
    own and never grouped."""
    changed = _changed(findings)
    keys = {id(f): key for f in findings if (key := _group_key(f, project, changed)) is not None}
    sizes = Counter(keys.values())
    for at, key in keys.items():  # a config's one or two values read better in the site's own note
        if key[0] == "site" and key[2] is not None and sizes[key] < MIN_GROUP:
            keys[at] = (*key[:2], None, key[3])
    groups: dict[tuple[object, ...], list[Finding]] = {}
    for finding in findings:
        if id(finding) in keys:
            groups.setdefault(keys[id(finding)], []).append(finding)
    out: list[Finding] = []
    for finding in findings:
        members = groups.get(keys.get(id(finding), ()))
        if not members or len(members) < MIN_GROUP:
            out.append(finding)
        elif finding is members[0]:
            out.append(_calls_note(members) if finding.kind is Kind.INLINED_CALL else _constants_note(members))
    return out


def _owner(source: str) -> tuple[str, str]:
    """`L['self'].config.hidden_size` -> (`L['self'].config`, `hidden_size`)."""
    last = _LAST_STEP.search(source)
    if last is None or last.start() <= 1:  # `L['x']` is a local of its own, not an attribute of `L`
        return source, ""
    return source[:last.start()], last.group().lstrip(".")


def _values(members: list[Finding]) -> str:
    """`L['self'].config` (`output_router_logits`, `return_dict`), `L['attention_mask']`, and 3 more."""
    owners: dict[str, list[str]] = {}
    for finding in members:
        owner, attribute = _owner(finding.source or finding.code)
        names = owners.setdefault(owner, [])
        if attribute and attribute not in names:
            names.append(attribute)
    ranked = sorted(owners.items(), key=lambda kv: -len(kv[1]))
    parts = []
    for owner, names in ranked[:SHOWN_OWNERS]:
        more = ", …" if len(names) > SHOWN_ATTRIBUTES else ""
        shown = ", ".join(f"`{n}`" for n in names[:SHOWN_ATTRIBUTES]) + more
        parts.append(f"`{owner}` ({shown})" if names else f"`{owner}`")
    more = len(ranked) - SHOWN_OWNERS
    return ", ".join(parts) + (f", and {more} more" if more > 0 else "")


def _frames(members: list[Finding]) -> tuple[list[str], str]:
    """The compiled entries of a group, and `the graphs of 3 compiled frames (`A`, `B`, `C`)`."""
    entries = list(dict.fromkeys(e for f in members for e in entries_of(f)))
    names = [f"`{e.rpartition(':')[2]}`" for e in entries]
    return entries, (f"the graphs of {len(names)} compiled frames ({', '.join(names[:3])}"
                     f"{', …' if len(names) > 3 else ''})" if len(names) > 1 else f"the graph of {names[0]}")


def _grouped(members: list[Finding], message: str, related: tuple[Related, ...] = ()) -> Finding:
    head = members[0]
    entries, _ = _frames(members)
    code = Counter(f.code for f in members).most_common(1)[0][0]
    return head.with_(code=code, message=message, source=None, guard=None, variable_tracker=None,
                      entries=tuple(entries) if len(entries) > 1 else (), related=related, chain=(), fix=None,
                      runtime={}, library=tuple(dict.fromkeys(p for f in members for p in f.library)),
                      members=tuple(members))


def _constants_note(members: list[Finding]) -> Finding:
    head = members[0]
    _, frames = _frames(members)
    config = config_place(head) if head.library and all(config_place(f) for f in members) else None
    if config is not None:  # "17 values of the config are baked into the graph from `cfg` at run.py:5 (...)"
        name, built = config
        names = list(dict.fromkeys(_owner(f.source or f.code)[1] or (f.source or f.code) for f in members))
        shown = ", ".join(f"`{n}`" for n in names[:SHOWN_FIELDS]) + (", …" if len(names) > SHOWN_FIELDS else "")
        at = f"{built.path}:{built.line}"
        origin = f"from `{name}` at {at}" if name else f"from the config built at {at}"
        message = (f"{len(members)} values of the config are baked into {frames} {origin} ({shown}), each behind "
                   "a value guard; -v or --select VTL101 lists each")
        return _grouped(members, message, tuple(r for r in head.related if r.location == built))
    where = " reached here" if head.library else ""
    return _grouped(members, f"{len(members)} values are baked into {frames}{where}, each behind a value guard: "
                             f"{_values(members)}; -v or --select VTL101 lists each")


_CALLEE = re.compile(r"^`([^`]+)` is inlined")


def _calls_note(members: list[Finding]) -> Finding:
    """The calls Dynamo inlined inside a package's frames reached at one project line, as one note."""
    _, frames = _frames(members)
    callees = list(dict.fromkeys(m.group(1) for f in members if (m := _CALLEE.match(f.message))))
    shown = ", ".join(f"`{c}`" for c in callees[:SHOWN_OWNERS]) + (", …" if len(callees) > SHOWN_OWNERS else "")
    return _grouped(members, f"{len(members)} calls are inlined (UserFunctionVariable) into {frames} reached here: "
                             f"{shown}; -v lists each")
