"""Recompile hazards: guards the project visibly makes fail.

A value guard (`EQUALS_MATCH: L['n'] == 3`) fails when a later call passes a
different value, when code assigns the global or attribute it reads, or when
`forward` itself bumps an nn.Module int attribute. What follows depends on the
value: ints and floats recompile once and then become dynamic (automatic
dynamic shapes); bools, strings and nn.Module int attributes recompile for
every new value until the recompile limit, after which Dynamo runs the frame
eagerly. The calls' tensors fail TENSOR_MATCH on another size (once, then the
dimension is dynamic), dtype or requires_grad; another function object fails
its ID_MATCH; a call under another grad mode fails GLOBAL_STATE; a list the
compiled code appends to fails its length guard on every call."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import Any

import libcst as cst

from vtlint.analyzer import values as V
from vtlint.analyzer.entries import EntrySpec, ModuleFacts, Mutation, Site
from vtlint.analyzer.index import Parsed, Project
from vtlint.analyzer.sources import LocalSource
from vtlint.analyzer.summary import dotted, literal, positional_params
from vtlint.analyzer.traverse import visit
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables.nn_module import parameters_of
from vtlint.analyzer.variables.shapes import DATA_DEPENDENT, strides
from vtlint.analyzer.walk import Frame, Functions
from vtlint.config import DynamoSettings
from vtlint.findings import Location, Related
from vtlint.trace import Action, Event

# the guards a call's own values can fail (a SymInt's TYPE_MATCH: another type, None included)
CALL_VALUE_GUARDS = ("EQUALS_MATCH", "TRUE_MATCH", "FALSE_MATCH", "NONE_MATCH", "ID_MATCH", "TYPE_MATCH")
_PATH = re.compile(r"\[(\d+|'[^']*')\]|\.(\w+)")


def predict_recompiles(project: Project, spec: EntrySpec, settings: DynamoSettings, events: list[Event],
                       calls: list[Site], facts: dict[str, ModuleFacts], entry: str,
                       pairwise: bool = False, functions: Functions | None = None) -> list[Event]:
    """The guards of the compile `events` traced (for `calls[0]`) that later calls fail. `pairwise`:
    only what a call's own values fail (the check of one cache entry), not the assignments and
    in-frame mutations that fail a guard whatever the call passes. `functions`: the `def`s the calls'
    walk ran, for the closures they pass."""
    out: list[Event] = []
    parsed = project.parsed(spec.display)
    if parsed is None:
        return out
    fn = parsed.functions[spec.qualname]
    params = [p.name.value for p in positional_params(fn)]
    receiver = None  # a method's `self`: the object the compiled calls were made on
    if "." in spec.qualname and spec.qualname.rpartition(".")[0] in parsed.summary.classes and params:
        receiver, params = params[0], params[1:]
    defaults = {p.name.value: p.default for p in [*fn.params.params, *fn.params.kwonly_params] if p.default is not None}
    order = functools.partial(_guard_order, modules=_module_roots(calls, params), raw=spec.raw_locals)
    mutations, named = _assignments(project, facts)
    # the functions this entry's graph traces: the entry and every call it inlines
    walked = {entry} | {e.callee for e in events if e.action is Action.INLINE and e.callee}
    lengths: list[Event] = []  # an argument's list of another length: a TENSOR_MATCH failing at that call comes first
    for wrap in events:
        if wrap.action is Action.WRAP and wrap.guard_kind == "LENGTH_CHECK" and wrap.source and calls \
                and not wrap.detail.get("mutated_in_frame"):
            lengths += _length_changes(wrap, calls, params, settings, entry)
        if wrap.action is not Action.WRAP or wrap.guard_kind not in CALL_VALUE_GUARDS or not wrap.source:
            continue
        root, path = _split_source(wrap.source)
        if root is None:
            continue
        kind, name = root
        found: list[Event] = []
        if wrap.detail.get("nn_module_attribute") and wrap.detail.get("owner") and not pairwise:
            found = _module_attribute(spec, settings, wrap, mutations, project, entry, walked, facts)
        if not found and calls and kind == "L" and (name in params or name == receiver):
            index = params.index(name) if name in params else None
            default = literal(defaults[name], parsed.summary.imports) if name in defaults else None
            pick = functools.partial(_argument, index=index, name=name, default=default)
            found = _changed_values(wrap, calls, pick, path, settings, entry)
        if not found and calls and kind == "L" and name not in params and any(name in c.cells for c in calls):
            # a closure cell: each call's closure holds its own (`make_loss(w)` called again)
            found = _changed_values(wrap, calls, lambda site, name=name: site.cells.get(name), path, settings, entry)
        if not found and calls and kind == "G":
            key, inner = _global_key(project, spec, name, path)
            found = _changed_values(wrap, calls, lambda site, key=key: site.globals.get(key), inner, settings, entry)
        # a value computed eagerly before a break (`.item()`) and handed to the resume function; not the
        # items of a loop's iterator (`L['___stack0'][0]`), which the loop hands over the same way each call
        handed = (name.startswith("___stack") and not path) or wrap.detail.get("from_item")
        if not found and kind == "L" and handed and _called_again(calls) and not pairwise:
            found = [_resumed_value(wrap, calls, settings, entry)]
        out += found
        if not found and (kind == "G" or (kind == "L" and name in defaults and not path == [])) and not pairwise:
            out += _mutated_globals(project, spec, wrap, kind, name, path, defaults, named, entry, settings)
    if not pairwise:
        out += [_grown_in_frame(wrap, calls, settings, entry) for wrap in events if wrap.action is Action.WRAP
                and wrap.guard_kind == "LENGTH_CHECK" and wrap.detail.get("mutated_in_frame") and _called_again(calls)]
        out += _one_per_call([e for wrap in events if wrap.action is Action.WRAP and "set_in_frame" in wrap.detail
                              and len(calls) > 1 and (e := _set_in_frame(wrap, calls, params, entry)) is not None],
                             lambda e: (e.location, e.detail["call"]), order)
    frame = next((e for e in events if e.action is Action.FRAME), None)
    if calls and frame is not None:
        out += _one_per_call([*(e for i, name in enumerate(params)
                                if (e := _tensor_change(frame, calls, name, i, settings, entry)) is not None),
                              *lengths], lambda e: e.location, order)
        functions = functions or Functions()
        out += [e for i, name in enumerate(params)
                if (e := _function_change(frame, calls, name, i, settings, entry, functions)) is not None]
        out += _keyword_changes(frame, calls, fn, receiver, settings, entry)
        # the module the method is bound to, and modules passed as arguments (`logprobs(policy, ...)`, then
        # `logprobs(reference, ...)` whose parameters are frozen)
        modules = [(receiver, lambda site, r=receiver: site.kwargs.get(r))] if receiver is not None else []
        modules += [(p, functools.partial(_argument, index=i, name=p, default=None)) for i, p in enumerate(params)]
        for name, pick in modules:
            frozen = _requires_grad_change(frame, calls, name, entry, parsed, fn, pick)
            out += [frozen] if frozen is not None else []
        grad = _grad_mode_change(frame, calls, entry)
        if grad is not None:  # checked first (the guard tree's root): it is the recompile torch reports there
            out = [grad, *(e for e in out if e.location != grad.location
                           or e.detail.get("call", grad.detail["call"]) != grad.detail["call"])]
    if pairwise:  # every guard the call fails, in the order torch checks them: the cache skips the dynamic ones
        return _fold_instances(sorted(out, key=order))
    return _fold_instances(_one_per_call(out, _same_call, order))


def _assignments(project: Project, facts: dict[str, ModuleFacts]) -> tuple[list[Mutation], dict[str, list[Mutation]]]:
    """Every module's assignments, and those outside `self.` by the name they assign: once per check
    (each compile of each entry asks), unless a module was scanned since."""
    scanned = tuple(facts.values())
    kept = project.assignments
    if kept is not None and len(kept[0]) == len(scanned) and all(a is b for a, b in zip(kept[0], scanned)):
        return kept[1], kept[2]
    mutations = [m for f in scanned for m in f.mutations]
    named: dict[str, list[Mutation]] = {}
    for mutation in mutations:
        if not mutation.target.startswith("self."):
            named.setdefault(mutation.target.rpartition(".")[2], []).append(mutation)
    project.assignments = (scanned, mutations, named)
    return mutations, named


def _function_change(frame: Event, calls: list[Site], name: str, index: int, settings: DynamoSettings,
                     entry: str, functions: Functions) -> Event | None:
    """Another function passed where the first call passed one (`activation=F.gelu` after `F.relu`):
    Dynamo guards the function object by identity (ID_MATCH), so each one compiles a graph of its own.
    Closures of one `def` share their code: what fails is a cell's guard (_closure_change)."""
    pick = functools.partial(_argument, index=index, name=name, default=None)
    base = pick(calls[0])
    if base is None or base.kind not in (V.LIB, V.FUNC, V.BUILTIN) or not base.ref:
        return None
    if functions.closure(base) is not None:
        return _closure_change(frame, calls, name, pick, settings, entry, functions)
    for site in calls[1:]:
        current = pick(site)
        if current is None or current.kind not in (V.LIB, V.FUNC, V.BUILTIN) or not current.ref \
                or current.ref == base.ref:
            continue
        shown = current.ref.rpartition(".")[2]
        others = {v.ref for c in calls[1:] if (v := pick(c)) is not None and v.ref and v.ref != base.ref}
        return Event(Action.RECOMPILE, site.location, entry, frame=frame.frame,
                     source=f"L[{name!r}]", variable_tracker="UserFunctionVariable", guard_kind="ID_MATCH",
                     guard=f"ID_MATCH: ___check_obj_id(L[{name!r}], ...)", confidence="medium",
                     related=_guarded_at(frame, name, "ID_MATCH"),
                     detail={"reason": f"called with another function ({shown}): Dynamo guards the function "
                                       f"object by identity (ID_MATCH), so each distinct function compiles a "
                                       f"graph of its own, up to recompile_limit ({settings.recompile_limit})",
                             "remedy": "compile one function per choice, or select the function by a flag "
                                       "inside the compiled code", "changed_value": shown, "once": False,
                             "distinct": len(others)})
    return None


def _keyword_changes(frame: Event, calls: list[Site], fn: cst.FunctionDef, receiver: str | None,
                     settings: DynamoSettings, entry: str) -> list[Event]:
    """A keyword the calls pass into `**kwargs` at some calls only (`pixel_values=` on the first call of a
    vision-language model, not the next): the guard the frame's use of the dict installed fails.
    Passed on whole (`self.vision(x, **kwargs)`): `DICT_LENGTH: len(L['kwargs']) == 1`; tested
    (`kwargs.get("k")`, `"k" in kwargs`): `DICT_CONTAINS: not ___dict_contains('k', L['kwargs'])`; read
    (`kwargs["k"]`): its value's guard, which raises `KeyError on kwargs['k']` (torch names no Source).
    Each set of keywords compiles once (measured)."""
    star = fn.params.star_kwarg
    if star is None or len(calls) < 2:
        return []
    name = star.name.value
    named = {p.name.value for p in [*positional_params(fn), *fn.params.kwonly_params]} | {receiver}
    passed = [frozenset(k for k in site.kwargs if k not in named) for site in calls]
    number = next((i for i, keys in enumerate(passed[1:], 1) if keys != passed[0]), None)
    if number is None:
        return []
    first, now = passed[0], passed[number]
    uses = _dict_uses(fn, name)
    changed = sorted((first ^ now) & uses.keys())
    spelled = f"L[{name!r}]"
    if uses.get(None) == "spread" and len(first) != len(now):
        kind, guard, source = "DICT_LENGTH", f"DICT_LENGTH: len({spelled}) == {len(first)}", spelled
    elif changed and uses[changed[0]] == "tested":
        key = changed[0]
        kind, source = "DICT_CONTAINS", spelled
        guard = f"DICT_CONTAINS: {'' if key in first else 'not '}___dict_contains({key!r}, {spelled})"
    elif changed and changed[0] in first:
        kind, guard, source = None, f"KeyError on {name}[{changed[0]!r}]", None  # the value's guard, keyless
    else:
        return []
    distinct = len(set(passed)) - 1
    what = ", ".join(sorted(now - first)) or "no " + ", ".join(sorted(first - now))
    return [Event(Action.RECOMPILE, calls[number].location, entry, frame=frame.frame, source=source,
                  variable_tracker="ConstDictVariable", guard_kind=kind, guard=guard, confidence="medium",
                  related=(Related(frame.location, f"guarded here: {guard}"),),
                  detail={"reason": f"called with {what} in **{name}: {guard} fails, so Dynamo compiles the frame "
                                    f"again for this set of keywords (each set once, up to recompile_limit "
                                    f"({settings.recompile_limit}))",
                          "remedy": "pass the same keywords on every call (None for an absent input)",
                          "changed_value": what, "once": False, "call": number, "distinct": distinct})]


def _dict_uses(fn: cst.FunctionDef, name: str) -> dict[str | None, str]:
    """How the function uses its `**name` dict: by key, "tested" (`.get`, `in`) or "read" (`[...]`); and
    under None, "spread" when it passes it on whole (`f(**name)`)."""
    uses: dict[str | None, str] = {}

    class Uses(cst.CSTVisitor):
        def visit_Arg(self, node: cst.Arg) -> None:
            if node.star == "**" and isinstance(node.value, cst.Name) and node.value.value == name:
                uses[None] = "spread"

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name \
                    and func.attr.value in ("get", "pop") and node.args:
                key = _literal_key(node.args[0].value)
                if key is not None:
                    uses.setdefault(key, "tested")

        def visit_Comparison(self, node: cst.Comparison) -> None:
            for target in node.comparisons:
                if isinstance(target.operator, (cst.In, cst.NotIn)) and isinstance(target.comparator, cst.Name) \
                        and target.comparator.value == name and (key := _literal_key(node.left)) is not None:
                    uses.setdefault(key, "tested")

        def visit_Subscript(self, node: cst.Subscript) -> None:
            if isinstance(node.value, cst.Name) and node.value.value == name and len(node.slice) == 1 \
                    and isinstance(node.slice[0].slice, cst.Index):
                key = _literal_key(node.slice[0].slice.value)
                if key is not None:
                    uses.setdefault(key, "read")

    visit(fn.body, Uses())
    return uses


def _literal_key(node: cst.BaseExpression) -> str | None:
    return node.evaluated_value if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str) \
        else None


def _closure_change(frame: Event, calls: list[Site], name: str, pick: Callable[[Site], Value | None],
                    settings: DynamoSettings, entry: str, functions: Functions) -> Event | None:
    """Closures of one `def` passed in turn (`h(t, f(1))`, then `h(t, f(2))`): Dynamo guards the code
    (`ID_MATCH: L['g'].__code__`, which holds) and each cell the function reads, by its index in
    `co_freevars`: `EQUALS_MATCH: L['g'].__closure__[0].cell_contents == 1` fails on the next closure's
    value. The runtime names no Source for a cell, so neither does the event."""
    made = functions.closure(pick(calls[0]))
    if made is None:
        return None
    node, cells = made
    for number, (cell, first) in enumerate(cells):
        def contents(site: Site, cell: str = cell) -> Value | None:
            found = functions.closure(pick(site))
            return dict(found[1]).get(cell) if found is not None and found[0] is node else None

        if first.kind != V.CONST or not first.known:
            continue
        spelled = f"L[{name!r}].__closure__[{number}].cell_contents"
        kind = ("NONE_MATCH" if first.value is None else "TRUE_MATCH" if first.value is True else
                "FALSE_MATCH" if first.value is False else "EQUALS_MATCH")
        wrap = Event(Action.WRAP, frame.location, entry, frame=frame.frame, source=spelled,
                     variable_tracker="ConstantVariable", guard_kind=kind,
                     guard=f"{kind}: {spelled} == {first.value!r}", value=repr(first.value), confidence="medium")
        found = _changed_values(wrap, calls, contents, [], settings, entry)
        if found:
            return found[0].with_(source=None, detail={**found[0].detail, "cell": cell})
    return None


def _length_changes(wrap: Event, calls: list[Site], params: list[str], settings: DynamoSettings,
                    entry: str) -> list[Event]:
    """A list or tuple argument (or one inside it) with another number of items at a later call
    (`gather(x, [x])`, then `gather(x, [x, x])`): its LENGTH_CHECK fails, and each new length compiles
    a graph of its own (a length is no number automatic dynamic generalizes)."""
    root, path = _split_source(wrap.source or "")
    if root is None or root[0] != "L" or root[1] not in params:
        return []
    name = root[1]
    pick = functools.partial(_argument, index=params.index(name), name=name, default=None)

    def length(site: Site) -> int | None:
        found = _follow(pick(site), path)
        return len(found.items) if found is not None and found.kind in (V.LIST, V.TUPLE) and found.items is not None \
            else None

    lengths = [length(site) for site in calls]
    if lengths[0] is None:
        return []
    seen = list(dict.fromkeys(n for n in lengths if n is not None))
    number = next((i for i, n in enumerate(lengths[1:], 1) if n is not None and n != lengths[0]), None)
    if number is None:
        return []
    why = (f"{wrap.guard or wrap.source} fails: each length the calls pass compiles a graph of its own, up to "
           f"recompile_limit ({settings.recompile_limit})")
    return [_event(wrap, calls[number], entry, f"called with {lengths[number]} items: {why}",
                   "pass a tensor (or a fixed-length tuple) instead of a list whose length changes",
                   {"changed_value": f"{lengths[number]} items", "once": False, "call": number,
                    "distinct": len(seen) - 1}, [])]


def _guarded_at(frame: Event, name: str, guard: str) -> tuple[Related, ...]:
    """Where the frame's guard on argument `name` sits: the entry, and the first use of the argument
    (where torch reports a TENSOR_MATCH or ID_MATCH failure)."""
    out = [Related(frame.location, f"guarded here: {guard} on L[{name!r}]")]
    read = frame.detail.get("first_reads", {}).get(name)
    if read:
        out.append(Related(Location(read[0], read[1], read[2]), f"L[{name!r}] is first used here"))
    return tuple(out)


def _grad_mode_change(frame: Event, calls: list[Site], entry: str) -> Event | None:
    """A call under `torch.no_grad()` after calls with grad enabled (or the reverse), or in another
    autocast region: Dynamo's GLOBAL_STATE guard fails and the frame compiles again for that global
    state (the eval step of a training loop; a fold trained in bf16), once per state the calls use."""
    states = [(site.grad_enabled, site.autocast) for site in calls]
    first = states[0]
    for number, (site, state) in enumerate(zip(calls[1:], states[1:]), 1):
        grad_changed = None not in (first[0], state[0]) and state[0] != first[0]
        autocast_changed = None not in (first[1], state[1]) and state[1] != first[1]
        if not (grad_changed or autocast_changed):
            continue
        known = {s for s in states if None not in s}
        what = "grad_mode" if grad_changed else "autocast"
        if grad_changed:
            now = "off (torch.no_grad() / inference_mode)" if not state[0] else "on"
            why = f"called with grad mode {now}, the first compile had it {'on' if first[0] else 'off'}"
        else:
            why = f"called in {_region(state[1])}, the first compile in {_region(first[1])}"
        return Event(Action.RECOMPILE, site.location, entry, frame=frame.frame,
                     guard_kind="GLOBAL_STATE", guard=f"GLOBAL_STATE changed: {what}", confidence="high",
                     related=(Related(frame.location, f"guarded here: GLOBAL_STATE ({what})"),),
                     detail={"reason": f"{why}: Dynamo's GLOBAL_STATE guard fails and each global state "
                                       f"(grad mode, autocast) compiles a graph of its own ({len(known)} here)",
                             "remedy": "expected for a train/eval loop (one extra compile); compile the eval "
                                       "step separately if its graph should differ",
                             "changed_value": "grad mode" if grad_changed else "autocast", "once": len(known) <= 2,
                             "distinct": max(len(known) - 1, 1), "call": number})
    return None


def _region(dtype: str | None) -> str:
    return f"an autocast region ({dtype})" if dtype else "no autocast region"


def _requires_grad_change(frame: Event, calls: list[Site], receiver: str, entry: str, parsed: Parsed,
                          fn: cst.FunctionDef, pick: Callable[[Site], Value | None]) -> Event | None:
    """Parameters frozen or unfrozen between two calls (`p.requires_grad_(epoch > 0)`, a frozen
    reference model passed where the policy was): each parameter's TENSOR_MATCH checks requires_grad,
    so the call after the change recompiles."""
    first = pick(calls[0])
    if first is None or first.kind != V.NN_MODULE:
        return None
    base = _requires_grad_by_source(first, receiver)
    for site in calls[1:]:
        module = pick(site)
        if module is None or module.kind != V.NN_MODULE:
            continue
        now = _requires_grad_by_source(module, receiver)
        changed = sorted((source for source, flag in now.items() if base.get(source, flag) != flag), key=_source_order)
        if not changed:
            continue
        also = f" ({len(changed) - 1} more parameters change with it)" if len(changed) > 1 else ""
        owner = changed[0].removeprefix(f"L[{receiver!r}].").split(".")[0]
        read = _first_read(parsed, fn, f"{receiver}.{owner}") or frame.location
        return Event(Action.RECOMPILE, site.location, entry, frame=frame.frame,
                     source=changed[0], variable_tracker="TensorVariable", guard_kind="TENSOR_MATCH",
                     confidence="high", related=(Related(read, f"guarded here: TENSOR_MATCH on {changed[0]}"),),
                     detail={"reason": f"called with {changed[0]}.requires_grad={now[changed[0]]}, the first compile "
                                       f"had requires_grad={base[changed[0]]}: the parameter's TENSOR_MATCH fails{also}",
                             "remedy": "freeze or unfreeze parameters before the first compiled call, or expect "
                                       "one recompile per change",
                             "changed_value": f"requires_grad={now[changed[0]]}", "once": True})
    return None


def _requires_grad_by_source(module: Value, receiver: str) -> dict[str, bool]:
    """Each parameter's requires_grad, where the walk knows it, by the Source Dynamo guards it under
    (`L['self'].backbone.bias`)."""
    out = {}
    for _, source, parameter in parameters_of(module, LocalSource(receiver)):
        flag = parameter.attrs.get("requires_grad")
        if source is not None and flag is not None and flag.known:
            out[source.name()] = bool(flag.value)
    return out


class _Reads:
    def __init__(self, name: str) -> None:
        self.name = name
        self.found: cst.Attribute | None = None

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self.found is None and dotted(node) == self.name:
            self.found = node


def _first_read(parsed: Parsed, fn: cst.FunctionDef, name: str) -> Location | None:
    """Where the frame's code first reads `self.backbone`: the module whose parameters are guarded."""
    reads = _Reads(name)
    visit(fn.body, reads)
    if reads.found is None:
        return None
    line, column, _, _ = parsed.span(reads.found)
    return Location(parsed.summary.display, line, column)


_ITEM = re.compile(r"\[\d+\]$")


_ROOT = re.compile(r"^[LG]\[[^\]]+\]")


def _same_call(event: Event) -> tuple[object, ...]:
    """Values that change at one call (`clip_eps` and `entropy_coef` of the same schedule step, or
    `L['kernel_size'][0]` and `[1]`): one recompile, on the guard torch checks first; automatic dynamic then
    generalizes every value that changed (measured)."""
    if "call" in event.detail:  # each frame (a resume function too) has guards of its own
        return (event.frame, event.location, event.detail["call"])
    source = event.source or ""
    return (event.location, _ITEM.sub("", source)) if _ITEM.search(source) else (event.location, source, id(event))


def _guard_order(event: Event, modules: frozenset[str] = frozenset(),
                 raw: Mapping[str, str] | None = None) -> tuple[Any, ...]:
    """Where a guard sits in the guard tree torch checks: guards are installed sorted by
    `Guard.sort_key` (its GuardSource first: frame locals, then globals, then what is read from an
    nn.Module, `modules`, the frame's roots that hold one; then the shorter name, then the name), and
    the tree gets one subtree per attribute or item (`L['batch']`, then `L['self'].body.mlp`) when its
    first guard is installed, the object on the path being guarded before what is read from it. So
    of several guards failing at one call torch reports the one whose path, at the first step where
    they part, is the shorter (`L['b']` before `L['x']`, `L['top_k']` before `L['temperature']`,
    `L['self'].body.mlp.fc.enabled` before `L['self'].body.proj.enabled`), and a cache's
    `L['cache'].layers[0].is_initialized` before the layer's own `L['self'].layer_idx` (measured). A
    decorator wrapper's frame is ordered by its locals' own places (`raw`: `L['args'][0]`, the hidden states
    passed positionally, before `**kwargs`' items, those in the order they were passed: measured)."""
    source = event.source or ""
    root = _ROOT.match(source)
    if raw and root and root.group(0) in raw:
        source = raw[root.group(0)] + source[root.end():]
    return _source_order(source, modules)


def _source_order(source: str, modules: frozenset[str] = frozenset()) -> tuple[Any, ...]:
    root = _ROOT.match(source)
    head = root.group(0) if root else source
    steps, prefix = [(len(head), head)], head
    for match in _PATH.finditer(source[len(head):]):
        prefix += match.group(0)
        steps.append((len(prefix), prefix))
    return ((0 if source.startswith("L[") else 1) + (2 if head in modules else 0), *steps)


def _module_roots(calls: list[Site], params: list[str]) -> frozenset[str]:
    """The frame's locals the first call passes an nn.Module in (`L['self']` of a forward)."""
    if not calls:
        return frozenset()
    # by keyword (a call site passes the receiver under its name too), else by position
    passed = {**calls[0].kwargs, **{name: _argument(calls[0], index, name, None) for index, name in enumerate(params)}}
    return frozenset(f"L['{name}']" for name, value in passed.items()
                     if value is not None and value.kind == V.NN_MODULE)


def _one_per_call(changes: list[Event], key: Callable[[Event], object],
                  order: Callable[[Event], tuple[Any, ...]] = _guard_order) -> list[Event]:
    """Guards that fail at the same call cause one recompile: one finding naming them all (torch
    names the first guard that fails)."""
    by_site: dict[object, list[Event]] = {}
    for event in changes:
        by_site.setdefault(key(event), []).append(event)
    out = []
    for group in by_site.values():
        first, *others = sorted(group, key=order)
        if others:
            also = ", ".join(e.source or "" for e in others)
            first = first.with_(detail={**first.detail, "reason": f"{first.detail['reason']} ({also} change at "
                                                               "the same call)"})
        out.append(first)
    return out


def _tensor_change(frame: Event, calls: list[Site], name: str, index: int, settings: DynamoSettings,
                   entry: str) -> Event | None:
    """The first call whose tensor fails the TENSOR_MATCH guard of the first: another size (the
    last, smaller batch; a longer sequence), dtype (`x.bfloat16()`) or requires_grad. A tuple or
    list of tensors (`batch = (x, y)`) is checked element by element (`L['batch'][0]`)."""
    pick = functools.partial(_argument, index=index, name=name, default=None)
    base = pick(calls[0])
    if base is not None and base.kind in (V.TUPLE, V.LIST) and base.items:
        changes = [_element_change(frame, calls, pick, name, i, settings, entry) for i in range(len(base.items))]
        return next((c for c in changes if c is not None), None)
    if base is None or base.kind != V.TENSOR:
        return None
    return _changed_tensor(frame, calls, pick, name, f"L[{name!r}]", settings, entry)


def _element_change(frame: Event, calls: list[Site], pick: Callable[[Site], Value | None], name: str, i: int,
                    settings: DynamoSettings, entry: str) -> Event | None:
    def element(site: Site) -> Value | None:
        whole = pick(site)
        items = whole.items if whole is not None and whole.kind in (V.TUPLE, V.LIST) else None
        return items[i] if items is not None and i < len(items) else None
    first = element(calls[0])
    if first is None or first.kind != V.TENSOR:
        return None
    return _changed_tensor(frame, calls, element, f"{name}[{i}]", f"L[{name!r}][{i}]", settings, entry)


def _changed_tensor(frame: Event, calls: list[Site], pick: Callable[[Site], Value | None], name: str, source: str,
                    settings: DynamoSettings, entry: str) -> Event | None:
    base = pick(calls[0])
    assert base is not None
    # a call in a loop is also the loop's next call: a size the data decides is another one there, first
    again = [(0, calls[0])] if calls[0].in_loop else []
    for number, site in [*again, *enumerate(calls[1:], 1)]:
        current = pick(site)
        if current is None or current.kind != V.TENSOR:
            continue
        failed = _tensor_mismatch(name, base, current)
        if failed is None:
            continue
        text, what = failed
        if what == "size" and settings.dynamic is True:
            continue  # dynamic=True: sizes are symbolic from the first compile
        specialized = what == "specialized size"
        what = "size" if specialized else what
        static = base.attrs.get("static_dims")
        if what == "size" and settings.automatic_dynamic_shapes and settings.dynamic is not False and not (
                static is not None and static.known and static.value):
            why = ("Dynamo recompiles once, then automatic dynamic marks that dimension dynamic (a SymInt) "
                   "so later sizes reuse the graph")
            remedy, once = "mark the dimension dynamic up front (torch._dynamo.mark_dynamic) or pad to one size", True
        elif what == "size":
            why = f"with dynamic=False or mark_static every distinct size compiles a new graph, up to recompile_limit " \
                  f"({settings.recompile_limit})"
            remedy, once = "pad to one size, or let automatic dynamic shapes generalize it", False
        elif what == "stride":
            why = ("a view cut from a bigger tensor has that tensor's strides, which TENSOR_MATCH checks: Dynamo "
                   "recompiles for the new layout")
            remedy, once = "pass the same layout each time (`.contiguous()` on the view)", True
        else:
            why = f"each distinct {what} compiles a graph of its own, up to recompile_limit ({settings.recompile_limit})"
            remedy, once = "pass tensors of one dtype and requires_grad to the compiled function", False
        if specialized:
            why += " (Dynamo specializes a size of 0 or 1 even in a dynamic dimension)"
        return Event(Action.RECOMPILE, site.location, entry, frame=frame.frame,
                     source=source, variable_tracker="TensorVariable", guard_kind="TENSOR_MATCH",
                     guard=text, confidence="medium",
                     related=_guarded_at(frame, name.partition("[")[0], "TENSOR_MATCH"),
                     detail={"reason": f"called with another tensor: {text}; {why}", "remedy": remedy,
                             "changed_value": "another tensor", "once": once, "call": number,
                             **({"specialized": True} if specialized else {})})
    return None


def resumed_changes(frames: list[Frame], later: dict[int, list[Frame]], calls: list[Site],
                    settings: DynamoSettings, entry: str, where: Location) -> list[Event]:
    """A resume function is a code object of its own, guarded on the tensors its graph uses of those it is
    handed (a tensor computed before the break, the `residual` after an MoE block's break): a later call
    that hands it another size (a longer sequence) fails that TENSOR_MATCH, and it recompiles once (then
    automatic dynamic). `frames`: the resume functions of the first call's trace; `later`: those of the
    trace of each later call, by its index in `calls`."""
    out: list[Event] = []
    sites = {id(site): i for i, site in enumerate(calls)}
    for first in frames:
        traced = {0: first, **{i: f for i, fs in later.items() for f in fs if f.name == first.name}}
        resumed = Event(Action.FRAME, where, entry, frame=first.name)
        changes = [change for local in first.handed if local in first.used and (change := _changed_tensor(
            resumed, calls, functools.partial(_handed, traced, sites, local), local, f"L[{local!r}]",
            settings, entry)) is not None]
        out += sorted(changes, key=lambda e: (e.detail["call"], _source_order(e.source or "")))[:1]
    return out


def _handed(traced: dict[int, Frame], sites: dict[int, int], local: str, site: Site) -> Value | None:
    """The tensor `local` a call's trace handed the resume function (None where that call was not traced)."""
    frame = traced.get(sites[id(site)])
    return frame.handed.get(local) if frame is not None else None


def _tensor_mismatch(name: str, base: Value, current: Value) -> tuple[str, str] | None:
    """What torch's TENSOR_MATCH says first (`tensor 'x' size mismatch at index 0. expected 16, actual 8`),
    and what differs: a size (which automatic dynamic generalizes), the rank, the dtype, requires_grad."""
    if base.pytype and current.pytype and base.pytype != current.pytype:
        return f"tensor {name!r} dtype mismatch. expected {base.pytype}, actual {current.pytype}", "dtype"
    grads = [t.attrs.get("requires_grad") for t in (base, current)]
    if all(g is not None and g.known for g in grads) and bool(grads[0].value) != bool(grads[1].value):  # type: ignore[union-attr]
        return f"tensor {name!r} requires_grad mismatch. expected requires_grad={int(bool(grads[0].value))}", "requires_grad"  # type: ignore[union-attr]
    if base.items is None or current.items is None:
        return None
    if len(base.items) != len(current.items):
        return f"tensor {name!r} rank mismatch. expected {len(base.items)}, actual {len(current.items)}", "rank"
    marked = base.attrs.get("dynamic_dims")
    dynamic = set(marked.value) if marked is not None and marked.known else set()
    for i, (a, b) in enumerate(zip(base.items, current.items)):
        if i in dynamic:
            continue
        if a.known and b.known and a.value != b.value:
            return f"tensor {name!r} size mismatch at index {i}. expected {a.value}, actual {b.value}", _size(a)
        if DATA_DEPENDENT in a.attrs and DATA_DEPENDENT in b.attrs:  # the tokens an expert gets, a masked select
            return f"tensor {name!r} size mismatch at index {i} (a size the data decides: another one each call)", \
                "size"
        longer = b.attrs.get("at_least")  # grown by a concatenation: at least this long
        if a.known and not b.known and longer is not None and longer.known and longer.value > a.value:
            return f"tensor {name!r} size mismatch at index {i}. expected {a.value}, actual {longer.value} or more", \
                _size(a)
    steps = strides(base), strides(current)
    if steps[0] is not None and steps[1] is not None and len(steps[0]) == len(steps[1]):
        for i, (a, b) in enumerate(zip(*steps)):
            if a != b and i not in dynamic:
                return f"tensor {name!r} stride mismatch at index {i}. expected {a}, actual {b}", "stride"
    return None


def _size(expected: Value) -> str:
    """A size that failed: a 0 or a 1 Dynamo specializes even in a dynamic dimension, so a compile
    seeded with one fails again at the next size (measured: sizes 1, 2, 3 under two grad modes, four
    graphs; 5, 6, 7: three)."""
    return "specialized size" if expected.value in (0, 1) else "size"


def _split_source(source: str) -> tuple[tuple[str, str] | None, list[Any]]:
    match = re.match(r"([LG])\[(?:'([^']*)')\]", source)
    if not match:
        return None, []
    rest = source[match.end():]
    path: list[Any] = []
    for index, attr in _PATH.findall(rest):
        path.append(attr if attr else (int(index) if index.isdigit() else index.strip("'")))
    return (match.group(1), match.group(2)), path


def _event(wrap: Event, site: Site | Location, entry: str, why: str, remedy: str, detail: dict[str, Any],
           related: list[Related]) -> Event:
    location = site if isinstance(site, Location) else site.location
    return Event(Action.RECOMPILE, location, entry, frame=wrap.frame, source=wrap.source,
                 variable_tracker=wrap.variable_tracker, guard_kind=wrap.guard_kind, guard=wrap.guard,
                 value=wrap.value, confidence=wrap.confidence,
                 related=(Related(wrap.location, f"guarded here: {wrap.guard or wrap.source}"), *related),
                 detail={"reason": why, "remedy": remedy, **detail})


def _follow(value: Value | None, path: list[Any]) -> Value | None:
    """The value a Source's path reaches inside a call's argument: `L['gen'].top_k`, `L['state']['step']`."""
    for step in path:
        if value is None:
            return None
        if step == "_modules" and value.kind == V.NN_MODULE:
            continue  # `L['self'].main._modules['1']`: the children are the module's own
        if isinstance(step, int) and value.kind in (V.LIST, V.TUPLE) and value.items is not None:
            value = value.items[step] if step < len(value.items) else None
        elif value.kind == V.DICT and value.keys is not None and value.items is not None and step in value.keys:
            value = value.items[value.keys.index(step)]
        elif value.kind in (V.OBJECT, V.NN_MODULE) and isinstance(step, str) and step in value.attrs:
            value = value.attrs[step]
        elif value.kind == V.NN_MODULE and value.keys is not None and value.items is not None and step in value.keys:
            value = value.items[value.keys.index(step)]  # a ModuleDict's (or named Sequential's) child
        elif value.kind == V.NN_MODULE and value.items is not None and isinstance(step, str) and step.isdigit():
            value = value.items[int(step)] if int(step) < len(value.items) else None  # _modules['0']
        else:
            return None
    return value


def _children_changed(base: Value | None, current: Value | None, path: list[Any], source: str) -> str | None:
    """The first `_modules` on the path whose number of children differs between the two calls'
    modules (`len(L['self'].main._modules) == 7`), or None."""
    spelled = _ROOT.match(source)
    shown = spelled.group(0) if spelled else source
    for step in path:
        if base is None or current is None:
            return None
        if step == "_modules" and base.kind == current.kind == V.NN_MODULE \
                and base.items is not None and current.items is not None and len(base.items) != len(current.items):
            return f"len({shown}._modules) == {len(base.items)}"
        base, current = _follow(base, [step]), _follow(current, [step])
        shown += f"[{step!r}]" if isinstance(step, int) or (isinstance(step, str) and step.isdigit()) else f".{step}"
    return None


def _ancestor_retyped(base: Value | None, current: Value | None, path: list[Any], source: str) -> str | None:
    """The Source of the first object on the path (not the guarded value itself) whose class differs
    between the two calls (`L['self'].mixer`, a block's mixer of another kind), or None. Dynamo's guard
    tree checks an object's type before the guards on its attributes."""
    spelled = _ROOT.match(source)
    shown = spelled.group(0) if spelled else source
    for step in path[:-1]:
        base, current = _follow(base, [step]), _follow(current, [step])
        shown += f"[{step!r}]" if isinstance(step, int) or (isinstance(step, str) and step.isdigit()) else f".{step}"
        if base is None or current is None:
            return None
        if step != "_modules" and base.kind == current.kind and base.kind in (V.OBJECT, V.NN_MODULE) \
                and base.ref and current.ref and base.ref != current.ref:
            return shown
    return None


def _differs(base: Value, current: Value) -> bool:
    """Whether the guard Dynamo installed for `base` fails for `current`."""
    if base.kind == current.kind == V.CONST and base.known and current.known:
        return base.value != current.value or type(base.value) is not type(current.value)
    if base.kind == current.kind == V.ENUM and base.known and current.known:
        return base.value != current.value  # ID_MATCH on the member
    stamps = [v.attrs.get(V.DATUM) for v in (base, current)]
    if base.kind == current.kind == V.CONST and stamps[0] is not None and stamps[1] is not None:
        return stamps[0].value != stamps[1].value  # numbers read from data at two reads: two numbers
    none = [v.kind == V.CONST and v.known and v.value is None for v in (base, current)]
    # NONE_MATCH fails for a tensor; a value guard fails for None
    return none[0] != none[1] and current.kind != V.UNKNOWN and base.kind != V.UNKNOWN


def _type_differs(base: Value, current: Value) -> bool:
    """Whether a TYPE_MATCH (a SymInt's or SymFloat's only guard) fails: another type, None included."""
    if base.kind != V.CONST or current.kind != V.CONST or not current.known:
        return False
    before = type(base.value).__name__ if base.known else base.pytype
    return before is not None and type(current.value).__name__ != before


def _retyped(base: Value, current: Value) -> bool:
    """`top_k=20` then `top_k=None`: a change of type, not of value."""
    return base.kind == current.kind == V.CONST and base.known and current.known and \
        type(base.value) is not type(current.value) and {type(base.value), type(current.value)} != {int, float}


def _described(value: Value) -> str:
    if value.kind == V.ENUM and value.known:
        return str(value.value)  # the member, `Phase.VAL`
    if value.kind == V.CONST and value.known:
        return repr(value.value)
    return {V.TENSOR: "a tensor", V.OBJECT: "an object", V.NN_MODULE: "a module"}.get(value.kind, "a new value")


def _argument(site: Site, index: int | None, name: str, default: Value | None) -> Value | None:
    """What a call passes for a parameter: by keyword, by position, else the default."""
    if name in site.kwargs:
        return site.kwargs[name]
    return site.args[index] if index is not None and index < len(site.args) else default


def _global_key(project: Project, spec: EntrySpec, name: str, path: list[Any]) -> tuple[str, list[Any]]:
    """`G['cfg']` -> the entry module's `cfg`; `G['__import_model'].FLAGS` -> model.py's `FLAGS`."""
    if name.startswith("__import_") and path and isinstance(path[0], str):
        found = project.split(name.removeprefix("__import_").replace("_dot_", "."))
        if found is not None:
            return f"{found[0].display}:{path[0]}", path[1:]
    return f"{spec.display}:{name}", path


def _changed_values(wrap: Event, calls: list[Site], pick: Callable[[Site], Value | None], path: list[Any],
                    settings: DynamoSettings, entry: str) -> list[Event]:
    """The first call whose value fails the guard: `g(x, 4)` after `g(x, 3)`, a learning rate
    recomputed each step, an attribute or global assigned between calls, or a loop variable."""
    first = calls[0]
    base = _follow(pick(first), path)
    if base is None:
        return []
    for number, site in [*enumerate(calls[1:], 1), *([(0, first)] if first.in_loop else [])]:
        container = _children_changed(pick(first), pick(site), path, wrap.source or "")
        if container is not None:  # another structure: torch's length check on the children fails first
            return [_event(wrap, site, entry, f"called with a module of another structure: {container} fails, so "
                                              "Dynamo traces the frame again for it",
                           "compile one model per structure, or expect one compile per model", {"call": number,
                           "once": False}, []).with_(source=None, guard_kind="LENGTH_CHECK", guard=container)]
        retyped = _ancestor_retyped(pick(first), pick(site), path, wrap.source or "")
        if retyped is not None:  # an object of another class on the path: its TYPE_MATCH is checked first
            return [_event(wrap, site, entry, f"called with an object of another class at {retyped}: its "
                                              "TYPE_MATCH fails, so Dynamo traces the frame again for it",
                           "expect one compile per class", {"call": number, "once": False}, []).with_(
                source=retyped, guard_kind="TYPE_MATCH", guard=f"TYPE_MATCH: ___check_type_id({retyped})")]
        current = _follow(pick(site), path)
        changes_in_loop = current is not None and (current.ref or "").startswith("loop:")
        if changes_in_loop and number and current is not None and current.ref == base.ref:
            continue  # the same iteration's value, passed again: it changes when the loop comes round
        differs = current is not None and (_type_differs(base, current) if wrap.guard_kind == "TYPE_MATCH"
                                            else _differs(base, current))
        if not (differs or changes_in_loop):
            continue
        if differs and current is not None and _retyped(base, current):
            why = (f"{wrap.source or 'the value'} now holds another type, which automatic dynamic does not "
                   f"generalize: each type compiles a graph of its own (up to recompile_limit "
                   f"({settings.recompile_limit}))")
            remedy, once = "pass the same type on every call (e.g. a sentinel value instead of None)", False
        else:
            why, remedy, once = _consequence(base, settings, wrap.source or "", wrap)
        new = _described(current) if differs and current is not None else "a new value each iteration"
        detail: dict[str, Any] = {"changed_value": new, "once": once, "call": number}
        seen = list(dict.fromkeys(repr(v.value) for c in calls if (v := _follow(pick(c), path)) is not None
                                  and v.known))
        if not once and len(seen) > 1:  # one graph per distinct value the calls pass
            detail["distinct"] = len(seen) - 1
        return [_event(wrap, site, entry, f"called with {new}: {wrap.guard or wrap.source} fails; {why}"
                       f"{_tally(wrap.source or 'it', seen, once, settings)}", remedy, detail, [])]
    return []


def _tally(source: str, seen: list[str], once: bool, settings: DynamoSettings) -> str:
    """` (L['lr'] takes 6 values in the calls in sight: 2 compiles)`."""
    if len(seen) < 3:
        return ""
    compiles = 2 if once else min(len(seen), settings.recompile_limit)
    shown = ", ".join(seen[:4]) + (", ..." if len(seen) > 4 else "")
    return f" ({source} takes {len(seen)} values in the calls in sight, {shown}: {compiles} compiles)"


def _grown_in_frame(wrap: Event, calls: list[Site], settings: DynamoSettings, entry: str) -> Event:
    """`history.append(loss.item())` in the compiled code: the list from outside has another length
    at every call, so its length guard fails every time."""
    site = calls[1] if len(calls) > 1 else calls[0]
    why = (f"the compiled code changes {wrap.source} in place, so the next call finds another length and "
           f"{wrap.guard or 'its LENGTH_CHECK'} fails on every call: each call recompiles until recompile_limit "
           f"({settings.recompile_limit}), then the frame runs eagerly")
    return _event(wrap, site, entry, f"calls it again: {why}",
                  "collect the values in a tensor (or return them) and extend the list outside the compiled "
                  "function", {"every_call": True, "once": False}, [])


def _set_in_frame(wrap: Event, calls: list[Site], params: list[str], entry: str) -> Event | None:
    """The compiled code stores into what its own guard reads (`capturable` set by the optimizer's
    tracing, `group['lr'] = lr`): the call after the one that stored another value fails the guard.
    A number recompiles once (automatic dynamic), a constant stored again stays; another key in a
    dict fails its DICT_LENGTH once."""
    written, origins = wrap.detail.get("set_in_frame"), wrap.detail.get("set_in_frame_from") or []
    what = f"the compiled code sets {wrap.source}"
    named = next((p for p in params if f"L['{p}']" in origins), None)  # to what a call passes
    if wrap.guard_kind == "DICT_LENGTH" or (named is None and written is not None and written != wrap.value):
        shown = f"added a key to {wrap.source}" if wrap.guard_kind == "DICT_LENGTH" else \
            f"set {wrap.source} to {written}"
        return _event(wrap, calls[1], entry,
                      f"calls it again: the compiled code {shown}, so {wrap.guard or 'its guard'} fails once; the "
                      "next compile sees the new value and keeps it",
                      "nothing to change: one extra compile, after which the value stays", {"once": True, "call": 1},
                      [])
    if named is None:
        return None
    index = params.index(named)
    stored = [_argument(site, index, named, None) for site in calls]
    for number, value in enumerate(stored[:-1]):
        if value is None or not value.known:
            return None
        if repr(value.value) != wrap.value:
            return _event(wrap, calls[number + 1], entry,
                          f"calls it again: {what} to `{named}` ({value.value!r}), so the next call fails "
                          f"{wrap.guard or 'its guard'}; Dynamo recompiles once, then automatic dynamic keeps it "
                          "a symbolic number", f"set `{wrap.source}` outside the compiled function",
                          {"once": True, "call": number + 1}, [])
    return None


def _called_again(calls: list[Site]) -> bool:
    return len(calls) > 1 or any(site.in_loop for site in calls)


def _resumed_value(wrap: Event, calls: list[Site], settings: DynamoSettings, entry: str) -> Event:
    """A number `.item()` read before a graph break is an input of the resume function
    (`___stack0`): a new value on the next call fails its guard."""
    number = 1 if len(calls) > 1 else 0
    why, remedy, once = _consequence(Value(V.CONST, pytype="float"), settings, wrap.source or "", wrap)
    return _event(wrap, calls[number], entry,
                  f"calls it again: the Python number `.item()` returned before the graph break is an input of "
                  f"`{wrap.frame}`, guarded by value ({wrap.guard_kind}), and a new value fails it; {why}",
                  "keep the value in a tensor (torch.where instead of a Python conditional), or set "
                  "torch._dynamo.config.capture_scalar_outputs = True", {"once": once, "call": number}, [])


def _consequence(value: Value, settings: DynamoSettings, source: str,
                 wrap: Event | None = None) -> tuple[str, str, bool]:
    pytype = value.pytype
    detail = wrap.detail if wrap is not None else {}
    if detail.get("nn_module_attribute") and detail.get("static", True):
        return (f"{source} is an int attribute of an nn.Module, which torch.compile keeps static: every distinct "
                f"value compiles a new graph, up to recompile_limit ({settings.recompile_limit})",
                "set torch._dynamo.config.allow_unspec_int_on_nn_module = True, or keep it in a tensor", False)
    if detail.get("specialized"):
        return (f"{source} is used where its exact value is needed (a torch op's Python scalar argument, which "
                f"the compiler specializes, or the bound of a loop Dynamo unrolls): every distinct value compiles "
                f"a new graph, up to recompile_limit ({settings.recompile_limit})",
                "pass it as a tensor (torch.tensor(lr)) or fold it into tensor arithmetic", False)
    if pytype in ("int", "float") and settings.automatic_dynamic_shapes and settings.dynamic is not False:
        sym = "SymInt" if pytype == "int" else "SymFloat"
        return (f"Dynamo recompiles once, then automatic dynamic turns {source} into a {sym} guarded only by its type",
                "pass it as a tensor, compile with dynamic=True, or mark it dynamic (torch._dynamo.mark_dynamic "
                "for tensor sizes) so the first graph is already general", True)
    return (f"every distinct value compiles a new graph, up to recompile_limit ({settings.recompile_limit}), "
            "then Dynamo runs the frame eagerly",
            "branch on it outside the compiled function, or pass a tensor", False)


def _mutated_globals(project: Project, spec: EntrySpec, wrap: Event, kind: str, name: str, path: list[Any],
                     defaults: dict[str, Any], named: dict[str, list[Mutation]], entry: str,
                     settings: DynamoSettings) -> list[Event]:
    """`cfg.scale = 5` where the entry reads G['cfg'].scale (or L['cfg'].scale through a default)."""
    summary = project.summaries[spec.display]
    root = name
    if kind == "L":
        spelled = dotted(defaults[name])
        if spelled is None or spelled.split(".")[0] not in summary.globals:
            return []
        root = spelled
    attrs = [str(p) for p in path if isinstance(p, str)]
    if len(attrs) != len(path):
        return []
    wanted = project.split(".".join([summary.module, root, *attrs]) if summary.module else ".".join([root, *attrs]))
    if wanted is None:
        return []
    out: list[Event] = []
    last = (attrs or [root])[-1].rpartition(".")[2]
    for mutation in named.get(last, []):  # the name assigned must be the one read
        found = project.split(mutation.target)
        if found is None or (found[0].display, found[1]) != (wanted[0].display, wanted[1]):
            continue
        if mutation.function is None and mutation.site.display == found[0].display:
            # the module's own top level, run on import: it sets the value before any compiled call
            # (calls made from that top level are followed by the eager run, with their globals)
            continue
        detail: dict[str, Any] = {"assigned": repr(mutation.value.value) if mutation.value.known else None}
        if wrap.detail.get("raw_source"):
            detail["raw_source"] = wrap.detail["raw_source"]
        new = repr(mutation.value.value) if mutation.value.known else "a new value"
        remedy = "keep it constant while the compiled function runs, or pass it as an argument (a tensor stays dynamic)"
        out.append(_event(wrap, mutation.site, entry,
                          f"assigns {new} to the value Dynamo baked as {wrap.value}: {wrap.guard or wrap.source} "
                          "fails on the next call and the frame recompiles", remedy, detail, []))
    return out


def _called_by_project(project: Project, facts: dict[str, ModuleFacts], method: str) -> bool:
    """Whether the project's own code (not an installed package's) calls a method of this name."""
    return any(callee.rpartition(".")[2] == method for display, fact in facts.items()
               if not project.is_library(display) for callee in fact.calls)


def _module_attribute(spec: EntrySpec, settings: DynamoSettings, wrap: Event, mutations: list[Mutation],
                      project: Project, entry: str, walked: set[str], facts: dict[str, ModuleFacts]) -> list[Event]:
    """`self.step += 1` in a method of the module's class (or a base): nn.Module int attributes
    stay static, so each new value recompiles; every call when the traced code itself assigns it. A
    package's method assigns only when something calls it: the traced code, or the project's own code
    (diffusers' `vae.enable_tiling()`, which a script that never calls it leaves at its default)."""
    found = project.klass(wrap.detail["owner"])
    if found is None:
        return []
    classes = {(m.display, c.qualname) for m, c in project.mro(*found)}
    out = []
    for mutation in mutations:
        if mutation.target != f"self.{wrap.detail['attribute']}" or (mutation.site.display, mutation.cls) not in classes:
            continue
        if (mutation.function or "").endswith(".__init__"):
            continue
        in_forward = f"{mutation.site.display}:{mutation.function}" in walked
        if not in_forward and project.is_library(mutation.site.display) and \
                not _called_by_project(project, facts, (mutation.function or "").rpartition(".")[2]):
            continue
        limit = settings.recompile_limit
        if not wrap.detail.get("static", True):  # allow_unspec_int_on_nn_module: an int like any other
            why, remedy, once = _consequence(Value(V.CONST, pytype="int"), settings, wrap.source or "")
            out.append(_event(wrap, mutation.site, entry, f"assigns a new value: {why}", remedy,
                              {"once": once, "attribute_of": wrap.detail["owner"]}, []))
            continue
        why = (f"{wrap.source} is an int attribute of an nn.Module, which torch.compile treats as static: "
               + (f"this assignment changes it on every call, so every call recompiles until recompile_limit "
                  f"({limit}) is hit, then Dynamo falls back to eager for this frame"
                  if in_forward else "each new value recompiles the frame"))
        remedy = ("set torch._dynamo.config.allow_unspec_int_on_nn_module = True, or keep the counter in a tensor "
                  "buffer (self.register_buffer('step', torch.zeros((), dtype=torch.long)))")
        out.append(_event(wrap, mutation.site, entry, why, remedy,
                          {"every_call": in_forward, "attribute_of": wrap.detail["owner"]}, []))
    return out


def _fold_instances(events: list[Event]) -> list[Event]:
    """One assignment (`self.calls += 1` in Block.forward) fails the guard of every instance
    the graph read (`..._modules['0'].calls`, `..._modules['1'].calls`): Dynamo reports the
    first failing guard, and so does one finding, naming the others."""
    out: list[Event] = []
    firsts: dict[tuple[Any, ...], Event] = {}
    for event in events:
        key = (event.location, event.detail.get("attribute_of"))
        if event.detail.get("attribute_of") is None or key not in firsts:
            firsts[key] = event
            out.append(event)
        else:
            first = firsts[key]
            first.detail.setdefault("also_sources", []).append(event.source)
    return out
