"""Findings grouped the way a reader of a big run asks about them: what will
recompile and why first, then what breaks the graph, then the rest; per compiled
entry and per cause. The text summary, --statistics, JSON and HTML share it."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from vtlint.findings import Finding, Kind, Level, Notification

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

    @property
    def rank(self) -> tuple[int, int, int, str]:
        return (-len(self.recompiles), -len(self.breaks), -sum(self.kinds.values()), self.entry)


def entries_of(finding: Finding) -> tuple[str, ...]:
    return finding.entries or ((finding.entry,) if finding.entry else ())


def by_entry(findings: list[Finding]) -> list[EntryGroup]:
    """Entries with the most recompiles, then breaks, then findings first."""
    groups: dict[str, EntryGroup] = {}
    for finding in findings:
        for entry in entries_of(finding):
            group = groups.setdefault(entry, EntryGroup(entry))
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
