"""The eager run: the scripts that call compiled functions, executed abstractly.

Dynamo's frames start where eager Python calls a compiled function: the values it
passes are what gets baked, and a later call with another value is what recompiles.
Those values are made by the caller's own code — a model built in `main()`, a learning
rate computed from the loop's step, a temperature annealed each epoch. The driver walks
each module that calls a compiled entry from its top level (`if __name__ ==
"__main__":` taken), with the walk in eager mode: nothing is guarded or broken, user
functions are followed, loops are unrolled, and every call of a compiled entry is
recorded with its abstract arguments, in the order the program makes them. A module's
functions that take no argument and that its top level never calls (`run()` or `main()`
called by a console script, a test runner or another program) run after it, each once."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from vtlint.analyzer import values as V
from vtlint.analyzer.chunks import READING
from vtlint.analyzer.entries import Site
from vtlint.analyzer.index import Project
from vtlint.analyzer.summary import named_params
from vtlint.analyzer.values import TOO_LARGE_NOTE
from vtlint.analyzer.walk import MODULE_FRAME, Act, Functions, TooComplex, WalkAborted, Walker
from vtlint.config import DynamoSettings

# Wall-clock safety nets of the eager run, per calling module and for all of them: well above what the
# step budget (MAX_EAGER_STEPS) takes, so that the calls a script makes do not depend on the machine's
# speed or load (a run cut short by the clock is not cached, and says so). A project of a few dozen
# scripts that each build a model whole (every layer of it) stays under the total on a loaded machine
DRIVER_BUDGET_S = 15.0
DRIVER_TOTAL_S = 180.0
MAX_RUNNERS = 3  # argument-free functions nobody calls, run as a program's entry points

Key = tuple[str, str]  # (display, qualname) of a compiled entry
Calls = dict[Key, list[Site]]


@dataclass
class Discovered:
    """An entry found by executing `torch.compile(value)`: the function Dynamo traces."""

    options: dict[str, Any]
    display: str  # where the compile call is
    line: int


@dataclass
class EagerRun:
    calls: Calls = field(default_factory=lambda: defaultdict(list))
    discovered: dict[Key, Discovered] = field(default_factory=dict)
    # a module's run ran out of time: what it recorded depends on the machine's speed (not cached)
    timed_out: bool = False
    # the functions its `def`s and lambdas made (`local:` refs): a call's arguments may hold them
    functions: Functions = field(default_factory=Functions)
    # values too large to follow that the scripts made (`n = n * n` forty times), once each
    notes: list[str] = field(default_factory=list)


def drive(project: Project, settings: DynamoSettings, callers: set[str], entries: set[Key]) -> EagerRun:
    """The calls of every compiled entry made by the `callers` modules, each module run
    once from its top level, and the entries their `torch.compile(...)` calls create."""
    run = EagerRun()
    deadline, read = time.monotonic() + DRIVER_TOTAL_S, READING.seconds
    for display in sorted(callers):
        if time.monotonic() - (READING.seconds - read) > deadline:  # reading library source is not the run's
            run.timed_out = True
            break  # the entries of modules not run keep the call sites the scanner found
        walker = _run_module(project, settings, display, entries)
        if walker is None:
            continue
        run.timed_out |= walker.timed_out
        made: Calls = defaultdict(list)
        for key, site in walker.recorded:
            made[key].append(site)
        for key, sites in made.items():
            # each module run is a program of its own (a script, and the harness importing it): an
            # entry's calls come from one of them, the one that calls it most, not from all in a row
            if len(sites) > len(run.calls.get(key, [])):
                run.calls[key] = sites
        for key, (options, where, line) in walker.discovered.items():
            run.discovered.setdefault(key, Discovered(options, where, line))
        run.functions.update(Functions.of(walker))
        run.notes += [note for note in walker.notes if note.startswith(TOO_LARGE_NOTE) and note not in run.notes]
    return run


def _run_module(project: Project, settings: DynamoSettings, display: str, entries: set[Key]) -> Walker | None:
    parsed = project.parsed(display)
    if parsed is None:
        return None
    walker = Walker(project, settings, f"{display}:{MODULE_FRAME}", MODULE_FRAME, DRIVER_BUDGET_S)
    walker.eager = 1
    walker.compiled = set(entries)
    act = Act(parsed, MODULE_FRAME, {"__name__": V.const("__main__")})
    walker.module_envs[display] = act.env  # its functions read the globals its top level assigns
    try:
        walker.block(list(parsed.module.body), act)
        for fn in _uncalled_runners(parsed.module.body, walker, display):
            walker.call(act.env.get(fn.name.value) or V.unknown(), [], {}, act, fn)
    except TooComplex as exc:
        walker.timed_out = exc.timed_out  # what ran before the walk stopped is still the program's first calls
    except WalkAborted:
        pass
    except RecursionError:  # code nested deeper than the walk follows: the program's calls so far stand
        walker.notes.append("nesting too deep to walk")
    return walker


def _uncalled_runners(body: Sequence[cst.CSTNode], walker: Walker, display: str) -> list[cst.FunctionDef]:
    """The module's functions callable without arguments that the top level did not call: a
    program's `main()` or `run()`. A module with more of them than a program has (a file of
    examples, a test module) is a library of cases, not a program: none is run."""
    out = []
    for stmt in body:
        if not isinstance(stmt, cst.FunctionDef) or (display, stmt.name.value) in walker.entered:
            continue
        required = [p for p in named_params(stmt) if p.default is None]
        if not required and (display, stmt.name.value) not in walker.compiled:
            out.append(stmt)
    return out if len(out) <= MAX_RUNNERS else []
