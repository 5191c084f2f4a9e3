"""Which predictions a run can judge: those of the entries it compiled.

`RuntimeFacts.exercised` answers a narrower question for merging (it also
wants the Source's local in the runtime frame's scope, and no earlier failing
guard that may hide a recompile), which would keep a benchmark's false alarms
out of the count. A benchmark scores every prediction of a compiled entry."""

from __future__ import annotations

from collections.abc import Callable

from vtlint.runtime.step import RuntimeFacts
from vtlint.trace import Event, entry_function


def entry_compiled(facts: RuntimeFacts) -> Callable[[Event], bool]:
    functions = {(e.rpartition(":")[0], entry_function(e)) for e in facts.coverage}

    def compiled(event: Event) -> bool:
        if event.entry in facts.coverage:
            return True
        path = event.entry.rpartition(":")[0] or event.location.path
        return (path, entry_function(event.entry)) in functions

    return compiled
