"""The graph-break golden suite: real-world programs, each marked with the breaks
torch 2.13 reports (`# expect: GB0170` on the line; `loop` when the break makes
Dynamo skip the whole frame, torch's "graph break in loop", GB7000; `loop-missed` when it does and
vtlint does not predict that yet; `missed` when vtlint does not predict the break yet). `ok_*`
programs must not break at all.

`python -m tests.golden_breaks.golden` prints, per program, what torch saw and what
vtlint predicted, and the precision/recall of the predicted breaks."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from vtlint.trace import Action, Event

PROGRAMS_DIR = Path(__file__).parent / "programs"
EXPECT = re.compile(r"#\s*expect:\s*(.+)$")


@dataclass(frozen=True)
class Expected:
    line: int
    gb_ids: frozenset[str]
    in_loop: bool
    missed: bool = False  # torch reports it, the static pass does not predict it yet
    loop_missed: bool = False  # torch skips the frame for a break in a loop, the static pass does not predict it


def programs() -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(PROGRAMS_DIR.glob("*.py"))}


def expectations(source: str) -> list[Expected]:
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        match = EXPECT.search(line)
        if match:
            words = match.group(1).split()
            found.append(Expected(number, frozenset(w for w in words if w.startswith("GB")), "loop" in words,
                                  "missed" in words, "loop-missed" in words))
    return found


def predicted_marks(source: str) -> set[tuple[int, str]]:
    """(line, GB id) of the marks the static pass must predict: all but the `missed` ones."""
    return {(e.line, gb) for e in expectations(source) if not e.missed for gb in e.gb_ids}


def break_keys(events: list[Event]) -> set[tuple[str, int, str | None]]:
    """The join key of a graph break: (file, line, registry type)."""
    return {(e.location.path, e.location.line, e.gb_type) for e in events if e.action is Action.GRAPH_BREAK}


def graph_count(events: list[Event]) -> int:
    """Graphs compiled for the program: the FRAME events' graph_count, summed."""
    return sum(int(e.detail.get("graph_count", 0)) for e in events if e.action is Action.FRAME)


@dataclass
class Score:
    true_positives: int = 0
    predicted: int = 0
    observed: int = 0
    graph_counts_right: int = 0
    programs: int = 0

    @property
    def precision(self) -> float:
        return self.true_positives / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.observed if self.observed else 1.0

    @property
    def graph_accuracy(self) -> float:
        return self.graph_counts_right / self.programs if self.programs else 1.0


def score(predicted: dict[str, list[Event]], observed: dict[str, list[Event]]) -> tuple[Score, dict[str, tuple]]:
    total = Score()
    rows = {}
    for name, seen in observed.items():
        said = predicted.get(name, [])
        p, o = break_keys(said), break_keys(seen)
        total.true_positives += len(p & o)
        total.predicted += len(p)
        total.observed += len(o)
        total.programs += 1
        graphs_ok = graph_count(said) == graph_count(seen)
        total.graph_counts_right += graphs_ok
        rows[name] = (sorted(o - p), sorted(p - o), graph_count(seen), graph_count(said))
    return total, rows


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.oracle import observe, predict

    progs = programs()
    seen = observe(progs)
    said = predict(progs)
    total, rows = score(said, {n: o.events for n, o in seen.items()})
    for name, (missed, false_alarms, g_seen, g_said) in rows.items():
        flag = "ok " if not missed and not false_alarms and g_seen == g_said else "XX "
        print(f"{flag}{name}: missed={missed} false={false_alarms} graphs torch={g_seen} vtlint={g_said}"
              + (f" error={seen[name].error}" if seen[name].error else ""))
    print(f"precision={total.precision:.3f} recall={total.recall:.3f} graph-count accuracy={total.graph_accuracy:.3f} "
          f"({total.true_positives} of {total.observed} observed breaks, {total.predicted} predicted, "
          f"{total.programs} programs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
