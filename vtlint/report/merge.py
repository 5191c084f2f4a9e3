"""Join the predicted trace with the observed one on DESIGN.md's key."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from vtlint.findings import Evidence
from vtlint.trace import Event, MergedEvent


def merge(
    predicted: Iterable[Event],
    observed: Iterable[Event] | None = None,
    exercised: Callable[[Event], bool] = lambda _event: False,
) -> list[MergedEvent]:
    """Evidence per event: `confirmed` when both traces have it, `refuted` when the
    runtime exercised the predicted event's code and did not see it, `predicted`
    when the code was not exercised (or no runtime ran), `runtime-only` otherwise."""
    if observed is None:
        return [MergedEvent(event, Evidence.PREDICTED) for event in predicted]
    by_key: dict[tuple[object, ...], Event] = {}
    for event in observed:
        by_key.setdefault(event.key, event)
    matched: set[tuple[object, ...]] = set()
    merged: list[MergedEvent] = []
    for event in predicted:
        seen = by_key.get(event.key)
        if seen is not None:
            matched.add(event.key)
            merged.append(MergedEvent(event, Evidence.CONFIRMED, seen))
        elif exercised(event):
            merged.append(MergedEvent(event, Evidence.REFUTED))
        else:
            merged.append(MergedEvent(event, Evidence.PREDICTED))
    for key, event in by_key.items():
        if key not in matched:
            merged.append(MergedEvent(event, Evidence.RUNTIME_ONLY, event))
    return merged
