"""Join the predicted trace with the observed one on DESIGN.md's key."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from vtlint.findings import Evidence
from vtlint.trace import Event, MergedEvent


def _same_wrapping(predicted: Event, seen: Event) -> bool:
    """A Source the runtime wrapped as a tensor does not confirm a prediction that it is
    a baked Python value (a guessed `None` default that was passed a tensor), nor the
    reverse: the join key names the Source, this checks what it became."""
    if not (predicted.variable_tracker and seen.variable_tracker):
        return True
    return (predicted.variable_tracker == "TensorVariable") == (seen.variable_tracker == "TensorVariable")


def merge(
    predicted: Iterable[Event],
    observed: Iterable[Event] | None = None,
    exercised: Callable[[Event], bool] = lambda _event: False,
) -> list[MergedEvent]:
    """Evidence per event: `confirmed` when both traces have it, `refuted` when the
    runtime exercised the predicted event's code and did not see it (or saw the Source
    become something else), `predicted` when the code was not exercised (or no runtime
    ran), `runtime-only` otherwise."""
    if observed is None:
        return [MergedEvent(event, Evidence.PREDICTED) for event in predicted]
    by_key: dict[tuple[object, ...], list[Event]] = {}
    for event in observed:
        by_key.setdefault(event.key, []).append(event)
    matched: set[tuple[object, ...]] = set()
    merged: list[MergedEvent] = []
    for event in predicted:
        seen = next((s for s in by_key.get(event.key, ()) if _same_wrapping(event, s)), None)
        if seen is not None:
            matched.add(event.key)
            merged.append(MergedEvent(event, Evidence.CONFIRMED, seen))
        elif exercised(event) or event.key in by_key:
            merged.append(MergedEvent(event, Evidence.REFUTED))
        else:
            merged.append(MergedEvent(event, Evidence.PREDICTED))
    for key, events in by_key.items():
        if key not in matched:
            merged.append(MergedEvent(events[0], Evidence.RUNTIME_ONLY, events[0]))
    return merged
