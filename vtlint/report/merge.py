"""Join the predicted trace with the observed one on DESIGN.md's key.

The evidence must never overstate: `confirmed` needs the runtime's record to
agree on the VariableTracker kind, the guarded value and the callee, not only on
the key; `refuted` needs the runtime to have compiled the entry with the Source
in scope (the caller's `exercised`) or to have recorded something else under
the same key; and an observed fact a prediction already accounts for (confirmed
or refuted by it) is never reported again as `runtime-only`."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from vtlint.findings import Evidence
from vtlint.report.attribution import function_at
from vtlint.trace import Action, Event, MergedEvent, callee_name

_FAMILIES = {
    "TensorVariable": "tensor",
    "ConstantVariable": "scalar", "SymNodeVariable": "scalar",
    "ListVariable": "container", "TupleVariable": "container", "ConstDictVariable": "container",
    "SetVariable": "container", "FrozensetVariable": "container", "RangeVariable": "container",
}


def _same_kind(predicted: Event, seen: Event) -> bool:
    """A Source the runtime wrapped as a tensor does not confirm a prediction that it is
    a baked Python value (a guessed `None` default that was passed a tensor), nor the
    reverse. A ConstantVariable that automatic dynamic later made a SymNodeVariable is
    the same kind; kinds outside these families are spelled too differently to compare."""
    mine = _FAMILIES.get(predicted.variable_tracker or "")
    theirs = _FAMILIES.get(seen.variable_tracker or "")
    return mine is None or theirs is None or mine == theirs


def _literal(text: str) -> object:
    """The value a guard prints, as Python reads it (`frozenset({'b', 'a'})` too: the order of a set's
    elements is not part of its value)."""
    inner = text.strip()
    frozen = inner.startswith("frozenset(") and inner.endswith(")")
    try:
        value = ast.literal_eval(inner[len("frozenset("):-1] or "set()" if frozen else inner)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return inner
    return frozenset(value) if frozen and isinstance(value, set) else value


def _same_value(predicted: Event, seen: Event) -> bool:
    """Both guarded values are known and differ: `baked as 1` against `self.step == 0`."""
    if predicted.value is None or seen.value is None:
        return True
    return _literal(predicted.value) == _literal(seen.value)


def _same_callee(predicted: Event, seen: Event) -> bool:
    """Project callees (`path:Qual.name`) must name the same function, not only the same code name."""
    mine, theirs = predicted.callee or "", seen.callee or ""
    if ":" in mine and ":" in theirs:
        return mine == theirs
    return callee_name(mine) == callee_name(theirs)


def agrees(predicted: Event, seen: Event) -> bool:
    """Whether the runtime's record confirms the prediction, beyond the join key."""
    if predicted.action is Action.WRAP:
        return _same_kind(predicted, seen) and _same_value(predicted, seen)
    if predicted.action is Action.INLINE:
        return _same_callee(predicted, seen)
    return True


def _own_frames(observed: list[Event]) -> dict[str, Event]:
    """Entry -> the runtime's FRAME record of it: a callee Dynamo compiled as its own
    frame was not inlined at the call site (a graph break inside it restarts the
    caller's trace and the call runs eagerly)."""
    return {e.entry: e for e in observed if e.action is Action.FRAME}


def _given_up(observed: list[Event]) -> dict[tuple[str, str, str], int]:
    """(entry, frame, file) -> the first line of a break at which Dynamo gave up on that frame (a loop's
    break): the run traced nothing of the frame past it."""
    lines: dict[tuple[str, str, str], int] = {}
    for event in observed:
        if event.action is Action.GRAPH_BREAK and event.detail.get("frame_skipped"):
            key = (event.entry, event.frame, event.location.path)
            lines[key] = min(lines.get(key, event.location.line), event.location.line)
    return lines


def _past_the_give_up(event: Event, given_up: dict[tuple[str, str, str], int]) -> bool:
    """A predicted break later in the same function of a frame Dynamo gave up on at an earlier break: the
    run never traced it, so it neither confirms nor refutes it (the expert loop's `torch.where` after the
    `if` on a tensor that broke first)."""
    path, line = event.location.path, event.location.line
    first = given_up.get((event.entry, event.frame, path))
    if event.action is not Action.GRAPH_BREAK or first is None or line <= first:
        return False
    function = function_at(path, first)
    return function is not None and function_at(path, line) == function


def merge(
    predicted: Iterable[Event],
    observed: Iterable[Event] | None = None,
    exercised: Callable[[Event], bool] = lambda _event: False,
) -> list[MergedEvent]:
    """Evidence per event: `confirmed` when both traces have it and agree, `refuted`
    when the runtime recorded something else under the key or exercised the predicted
    event's code (entry compiled, Source in scope) without seeing it, `predicted` when
    the code was not exercised (or no runtime ran), `runtime-only` for what is left."""
    if observed is None:
        return [MergedEvent(event, Evidence.PREDICTED) for event in predicted]
    seen_events = list(observed)
    by_key: dict[tuple[object, ...], list[Event]] = {}
    for event in seen_events:
        by_key.setdefault(event.key, []).append(event)
    frames = _own_frames(seen_events)
    given_up = _given_up(seen_events)
    accounted: set[tuple[object, ...]] = set()
    merged: list[MergedEvent] = []
    for event in predicted:
        candidates = by_key.get(event.key, [])
        own_frame = frames.get(event.callee or "") if event.action is Action.INLINE else None
        agreeing = next((s for s in candidates if agrees(event, s)), None)
        if candidates:
            accounted.add(event.key)
        if own_frame is not None:
            merged.append(MergedEvent(event, Evidence.REFUTED, own_frame))
        elif agreeing is not None:
            merged.append(MergedEvent(event, Evidence.CONFIRMED, agreeing))
        elif candidates:
            merged.append(MergedEvent(event, Evidence.REFUTED, candidates[0]))
        elif exercised(event) and not _past_the_give_up(event, given_up):
            merged.append(MergedEvent(event, Evidence.REFUTED))
        else:
            merged.append(MergedEvent(event, Evidence.PREDICTED))
    merged += [MergedEvent(events[0], Evidence.RUNTIME_ONLY, events[0])
               for key, events in by_key.items() if key not in accounted]
    return merged
