"""Dynamo's cache entries for one compiled code object, replayed over the calls in sight.

Each compile leaves a cache entry: the guards its trace installed. A call runs the newest entry
whose guards all pass; when none passes, Dynamo compiles again, and its recompile reasons name,
for every entry, the first guard that failed there (`- 2/1: ... target_is_real`, `- 2/0: ...
label_smoothing == 0.1`). A compile traces the frame with the values of the call that caused it,
so its guards are its own (another branch taken, other attributes read). A number that failed
its guard once is dynamic (automatic dynamic) in the entries compiled after it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from vtlint.analyzer.entries import Site
from vtlint.trace import Event

# The guards of a compile (its trace's events, for the call that caused it) that another call fails,
# the one torch checks first leading.
Check = Callable[[list[Event], Site, Site], list[Event]]
Compile = Callable[[int], list[Event]]


@dataclass
class CacheEntry:
    seed: int  # the call that compiled it
    events: list[Event]
    dynamic: frozenset[str] = frozenset()  # Sources automatic dynamic had generalized by then


@dataclass
class CacheRun:
    entries: list[CacheEntry]
    reasons: list[Event] = field(default_factory=list)  # every recompile's failing guards, one per entry


def replay(calls: list[Site], first: list[Event], check: Check, compile: Compile, limit: int) -> CacheRun:
    """Run `calls` against the cache the first call starts, compiling where no entry passes."""
    run = CacheRun([CacheEntry(0, first)])
    for index in range(1, len(calls)):
        failures = _failures(run.entries, calls, index, check)
        if failures is None:
            continue  # an entry passes: its graph runs
        if len(run.entries) >= limit:
            break  # recompile_limit: the frame runs eagerly from here on
        run.reasons += [failed[0] for failed in failures]
        # every number that changed since the last compile, not only the guard torch names
        generalized = {e.source for e in failures[0] if e.source and e.detail.get("once")}
        run.entries.append(CacheEntry(index, compile(index), run.entries[-1].dynamic | generalized))
    return run


def _failures(entries: list[CacheEntry], calls: list[Site], index: int, check: Check) -> list[list[Event]] | None:
    """The failing guards of each entry, newest first, in the order torch checks them (it reports
    the first); None when an entry passes."""
    out: list[list[Event]] = []
    for entry in reversed(entries):
        # a dynamic Source passes, unless the entry's compile specialized it (a size 0 or 1)
        failed = [e for e in check(entry.events, calls[entry.seed], calls[index])
                  if e.source not in entry.dynamic or e.detail.get("specialized")]
        if not failed:
            return None
        out.append(failed)
    return out
