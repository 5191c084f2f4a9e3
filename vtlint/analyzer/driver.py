"""The eager run: the scripts that call compiled functions, executed abstractly.

Dynamo's frames start where eager Python calls a compiled function: the values it
passes are what gets baked, and a later call with another value is what recompiles.
Those values are made by the caller's own code — a model built in `main()`, a learning
rate computed from the loop's step, a temperature annealed each epoch. The driver walks
each module that calls a compiled entry from its top level (`if __name__ ==
"__main__":` taken), with the walk in eager mode: nothing is guarded or broken, user
functions are followed, loops are unrolled, and every call of a compiled entry is
recorded with its abstract arguments, in the order the program makes them."""

from __future__ import annotations

from collections import defaultdict

from vtlint.analyzer import values as V
from vtlint.analyzer.entries import Site
from vtlint.analyzer.index import Project
from vtlint.analyzer.walk import MODULE_FRAME, Act, Walker, WalkAborted
from vtlint.config import DynamoSettings

DRIVER_BUDGET_S = 5.0  # seconds of abstract execution per calling module

Calls = dict[tuple[str, str], list[Site]]


def drive(project: Project, settings: DynamoSettings, callers: set[str], entries: set[tuple[str, str]]) -> Calls:
    """The calls of every compiled entry made by the `callers` modules, each module run
    once from its top level; `entries` are (display, qualname) pairs."""
    calls: Calls = defaultdict(list)
    for display in sorted(callers):
        for key, site in _run_module(project, settings, display, entries):
            calls[key].append(site)
    return dict(calls)


def _run_module(project: Project, settings: DynamoSettings, display: str,
                entries: set[tuple[str, str]]) -> list[tuple[tuple[str, str], Site]]:
    parsed = project.parsed(display)
    if parsed is None:
        return []
    walker = Walker(project, settings, f"{display}:{MODULE_FRAME}", MODULE_FRAME, DRIVER_BUDGET_S)
    walker.eager = 1
    walker.compiled = entries
    act = Act(parsed, MODULE_FRAME, {"__name__": V.const("__main__")})
    try:
        walker.block(list(parsed.module.body), act)
    except WalkAborted:
        pass  # what ran before the walk stopped is still the program's first calls
    return walker.recorded
