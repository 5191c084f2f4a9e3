"""One code object, many functions: a decorator's wrapper (transformers' `deprecate_kwarg` `wrapped_func`,
`functools.wraps` closures) is the same code for every function it wraps, so Dynamo's cache for it holds
one entry per wrapped function compiled as a frame. Each new function fails the guards of the entries
before it, and Dynamo recompiles, naming first the guard the most recent entry fails.

The guards that part one wrapped function from another sit on the wrapper's own locals: the length of
its `*args` (`len(L['args']) == 1`, `not L['args']`), the type of the receiver it reads through
`args[0].__class__` (TYPE_MATCH), and the wrapped function in its closure (ID_MATCH on its code). They
are checked in the order Guard.sort_key installs them (the shorter name first, then by name: `L['args']`
before `L['func']`), the object before what is read from it, and a root whose check failed is moved to
the front for the next check (the guard manager's fail-count order): measured on torch 2.13."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from vtlint.analyzer import comprehensions
from vtlint.analyzer import values as V
from vtlint.analyzer.summary import positional_params
from vtlint.analyzer.values import Value
from vtlint.findings import Location
from vtlint.trace import Action, Event


_MISSING = object()  # a guard the call's values have no counterpart of (fewer `*args`): it fails


@dataclass(frozen=True)
class CacheGuard:
    """A guard of a wrapper's own local: `root` the local, `index` the `*args` item it reads (TYPE_MATCH)."""

    root: str
    kind: str  # LENGTH_CHECK, TYPE_MATCH, ID_MATCH
    value: object  # the length, the class's or the function's dotted name
    index: int | None = None


@dataclass
class CacheEntry:
    """One compile of the wrapper's code: for which entry, its guards by root in check order."""

    entry: str
    guards: dict[str, list[CacheGuard]]
    order: list[str]  # the roots, as the guard manager checks them now
    fails: dict[str, int] = field(default_factory=dict)

    def first_failing(self, now: dict[str, list[CacheGuard]]) -> CacheGuard | None:
        """The first guard of this entry the call's values fail; the root it sits on moves to the front."""
        for root in self.order:
            given = {(g.kind, g.index): g.value for g in now.get(root, [])}
            for guard in self.guards[root]:
                if given.get((guard.kind, guard.index), _MISSING) != guard.value:
                    self.fails[root] = self.fails.get(root, 0) + 1
                    self.order.sort(key=lambda r: -self.fails.get(r, 0))
                    return guard
        return None


@dataclass
class WrapperCaches:
    """Dynamo's cache per wrapper code object, over the frames one compiled entry's run makes."""

    entries: dict[str, list[CacheEntry]] = field(default_factory=dict)

    def compile(self, code: str, fn: cst.FunctionDef, target: cst.FunctionDef, bound: dict[str, Value],
                closure: dict[str, Value], entry: str, location: Location) -> list[Event]:
        """The wrapper's code compiled for `entry` (the function it wraps): the recompile, named by the
        guard the most recent entry fails, and by the Sources older entries fail (every earlier entry is
        checked, and reorders its roots); then this compile joins the cache."""
        guards = wrapper_guards(fn, bound, closure)
        if not guards:
            return []
        cache = self.entries.setdefault(code, [])
        if any(known.entry == entry for known in cache):
            return []  # the same function again: its own values decide (the frame's recompile prediction)
        events: list[Event] = []
        for earlier in reversed(cache):
            failed = earlier.first_failing(guards)
            if failed is None:
                continue
            event = _recompile(failed, earlier, fn, target, entry, location)
            # the cause (the most recent entry's), then what the older entries fail on a Source of the
            # wrapped function's (`L['self']`): the ones a report can place
            if not events or (event.source and all(e.source != event.source for e in events)):
                events.append(event)
        cache.append(CacheEntry(entry, guards, sorted(guards, key=lambda root: (len(f"L[{root!r}]"), root))))
        return events


def wrapper_guards(fn: cst.FunctionDef, bound: dict[str, Value],
                   closure: dict[str, Value]) -> dict[str, list[CacheGuard]]:
    """The guards of a wrapper's own locals for one call: its `*args` length and the types of the items it
    reads `__class__` of, the functions in the closure cells it reads."""
    out: dict[str, list[CacheGuard]] = {}
    star = fn.params.star_arg.name.value if isinstance(fn.params.star_arg, cst.Param) else None
    read = comprehensions.names_read(fn)
    given = bound.get(star) if star else None
    if star and star in read and given is not None and given.items is not None:
        items = given.items
        out[star] = [CacheGuard(star, "LENGTH_CHECK", len(items))]
        classes = _ClassReads()
        fn.body.visit(classes)
        for index in sorted(classes.of.get(star, set())):
            if index < len(items) and items[index].ref:
                out[star].append(CacheGuard(star, "TYPE_MATCH", items[index].ref, index))
    for name, value in closure.items():
        if name in read and value.kind == V.FUNC and value.ref:
            out[name] = [CacheGuard(name, "ID_MATCH", value.ref)]
    return out


class _ClassReads(cst.CSTVisitor):
    """`name[i].__class__` reads of a function's own code (not of nested functions)."""

    def __init__(self) -> None:
        self.of: dict[str, set[int]] = {}

    def visit_Attribute(self, node: cst.Attribute) -> None:
        item = node.value
        if node.attr.value == "__class__" and isinstance(item, cst.Subscript) and isinstance(item.value, cst.Name) \
                and len(item.slice) == 1 and isinstance(item.slice[0].slice, cst.Index) \
                and isinstance(index := item.slice[0].slice.value, cst.Integer):
            self.of.setdefault(item.value.value, set()).add(int(index.value))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


def _recompile(guard: CacheGuard, earlier: CacheEntry, fn: cst.FunctionDef, target: cst.FunctionDef, entry: str,
               location: Location) -> Event:
    """The recompile as the runtime spells it: the receiver's type under the wrapped function's own
    parameter name (`L['self']`); the wrapper's `*args` and closure by theirs, with no Source of the
    wrapped function's."""
    source = None
    if guard.kind == "TYPE_MATCH":
        names = [p.name.value for p in positional_params(target)]
        source = f"L[{names[guard.index]!r}]" if guard.index is not None and guard.index < len(names) else None
        text = f"___check_type_id({source or f'L[{guard.root!r}][{guard.index}]'})"
    elif guard.kind == "LENGTH_CHECK":
        text = f"not L[{guard.root!r}]" if guard.value == 0 else f"len(L[{guard.root!r}]) == {guard.value}"
    else:
        text = f"___check_obj_id(L[{guard.root!r}])"
    where = earlier.entry.rpartition(":")[2]
    return Event(Action.RECOMPILE, location, entry, frame=fn.name.value, source=source, guard_kind=guard.kind,
                 guard=f"{guard.kind}: {text}", detail={
                     "failing_guard": text, "shared_code": True,
                     "reason": f"`{fn.name.value}` is one code object for every function its decorator wraps: "
                               f"its cache entry for {where} fails `{text}` here, and Dynamo compiles it again"})
