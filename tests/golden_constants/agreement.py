"""Agreement between the static pass and torch on the golden programs, per kind:
`python -m tests.golden_constants.agreement` prints the table (runs torch once)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field

from vtlint.trace import Action, Event

# What the suite compares: constant guards and container lengths, inlined calls, recompiles.
CONSTANT_GUARDS = frozenset({"EQUALS_MATCH", "TRUE_MATCH", "FALSE_MATCH", "NONE_MATCH", "LENGTH_CHECK"})
KINDS = ("wrap", "inline", "recompile")


def keys(events: Iterable[Event], kind: str) -> set[tuple[object, ...]]:
    if kind == "wrap":
        return {e.key for e in events if e.action is Action.WRAP and e.guard_kind in CONSTANT_GUARDS}
    if kind == "inline":
        return {e.key for e in events if e.action is Action.INLINE}
    return {key for e in events if e.action is Action.RECOMPILE and (key := _recompile_key(e)) is not None}


def _recompile_key(event: Event) -> tuple[object, ...] | None:
    """By Source; a recompile on global state (grad mode) has none: by its failing guard."""
    if event.source:
        return event.key
    guard = event.guard if event.guard_kind == "GLOBAL_STATE" else event.detail.get("failing_guard")
    return ("recompile", event.entry, guard) if isinstance(guard, str) and guard.startswith("GLOBAL_STATE") else None


@dataclass
class Tally:
    predicted: int = 0
    observed: int = 0
    agreed: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.agreed / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.agreed / self.observed if self.observed else 1.0


def tally(predicted: dict[str, list[Event]], observed: dict[str, list[Event]]) -> dict[str, Tally]:
    table = {kind: Tally() for kind in KINDS}
    for name in predicted:
        for kind in KINDS:
            said, seen = keys(predicted[name], kind), keys(observed.get(name, []), kind)
            row = table[kind]
            row.predicted += len(said)
            row.observed += len(seen)
            row.agreed += len(said & seen)
            row.misses += [f"{name}: extra {k}" for k in sorted(said - seen, key=str)]
            row.misses += [f"{name}: missed {k}" for k in sorted(seen - said, key=str)]
    return table


def render(table: dict[str, Tally]) -> str:
    lines = [f"{'kind':<10} {'predicted':>9} {'observed':>9} {'agreed':>7} {'precision':>9} {'recall':>7}"]
    for kind, row in table.items():
        lines.append(f"{kind:<10} {row.predicted:>9} {row.observed:>9} {row.agreed:>7} "
                     f"{row.precision:>9.2f} {row.recall:>7.2f}")
    return "\n".join(lines)


def main() -> int:
    from tests.golden_constants.programs import PROGRAMS
    from tests.oracle import observe, predict

    names = sys.argv[1:] or list(PROGRAMS)
    programs = {n: PROGRAMS[n] for n in names}
    seen = observe(programs)
    said = predict(programs)
    table = tally(said, {n: o.events for n, o in seen.items()})
    print(render(table))
    for kind, row in table.items():
        for miss in row.misses:
            print(f"  {kind}: {miss}")
    for name, obs in seen.items():
        if obs.error:
            print(f"  {name}: runtime error {obs.error}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
