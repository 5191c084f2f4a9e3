"""The entry frame's locals as Dynamo first sees them: each argument wrapped with
its LocalSource `L['name']`, its kind inferred from the first call site the
project shows (`g(x, 3, [1, 2])`), else from its default, else unknown."""

from __future__ import annotations

from typing import Any

import libcst as cst

from vtlint.analyzer import values as V
from vtlint.analyzer.entries import COMPILE, OPTIMIZE, EntrySpec, Site
from vtlint.analyzer.index import Parsed
from vtlint.analyzer.sources import LocalSource
from vtlint.analyzer.summary import dotted, literal, positional_params, resolve, scalar_annotation
from vtlint.analyzer.traverse import visit
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables.nn_module import set_training
from vtlint.analyzer.variables.unknown import is_tensor_only_attribute
from vtlint.analyzer.walk import FRAME_DEFAULTS, Act, Walker


def _scalar_annotation(param: cst.Param) -> str | None:
    """`int`, `float`, `bool` or `str` when the parameter is annotated so: a Python number or
    string (a constant Dynamo guards), not possibly a tensor."""
    return scalar_annotation(param.annotation.annotation) if param.annotation is not None else None


def entry_env(walker: Walker, parsed: Parsed, spec: EntrySpec, fn: cst.FunctionDef, calls: list[Site]) -> dict[str, Value]:
    env: dict[str, Value] = {}
    copies: dict[int, dict[str, Value]] = {}  # the seeds' copies: an object under two names stays one
    params = positional_params(fn)
    summary = parsed.summary
    owner = spec.qualname.rpartition(".")[0]
    is_forward = False
    if params and owner in summary.classes:
        is_forward = spec.qualname.endswith(".forward")
        ref = f"{summary.module}.{owner}" if summary.module else owner
        receiver = params[0].name.value
        seen_self = calls[0].kwargs.get(receiver) if calls else None
        if seen_self is not None and seen_self.kind in (V.NN_MODULE, V.OBJECT):
            # the object the program built (a copy: what the frame stores must not reach the call's record)
            env[receiver] = V.snapshot(seen_self, depth=64, memo=copies).with_(source=LocalSource(receiver))
        else:
            # built before tracing by code nobody shows here: `__init__` walked with its defaults
            init = walker.project.function(f"{ref}.__init__")
            required = init[1].params[1:len(init[1].params) - len(init[1].defaults)] if init else []
            env[receiver] = walker.objects.instantiate(ref, [V.unknown() for _ in required], {},
                                                       LocalSource(receiver))
            if env[receiver].kind == V.NN_MODULE and not calls:
                set_training(env[receiver], None)  # train() or eval(): the code that decides is not in sight
        params = params[1:]
    first = calls[0] if calls else None
    tensors = _used_as_tensors(fn, walker)
    caller = walker.project.summaries.get(first.display) if first else None
    for index, param in enumerate(params):
        name = param.name.value
        source = LocalSource(name)
        seen = _site_value(first, index, name)
        if seen is not None and caller is not None and seen.kind != V.UNKNOWN:
            copy = V.snapshot(seen, depth=64, memo=copies)
            env[name] = walker.materialize(copy, caller, source, None).with_(confidence="high")
        elif param.default is not None and index == 0 and first is None and _is_none(param.default):
            # `forward(self, input_ids=None, ...)` with no call in sight: the first argument is the
            # one every caller passes (a tensor, TENSOR_MATCH), not the `None` default
            env[name] = Value(V.TENSOR, source=source, confidence="medium")
        elif param.default is not None and seen is None:
            default = walker.materialize(literal(param.default, summary.imports), summary, source, None)
            env[name] = default.with_(confidence=_default_confidence(default, first))
        elif (scalar := _scalar_annotation(param)) is not None:
            env[name] = Value(V.CONST, source=source, pytype=scalar, confidence="medium")  # `alpha_t: float`
        elif name in tensors or is_forward:
            # nn.Module.forward takes tensors; so does a parameter only tensor methods are called on
            env[name] = Value(V.TENSOR, source=source, confidence="medium")
        else:
            env[name] = Value(V.UNKNOWN, source=source, confidence="low")
    if "<locals>" in spec.qualname:
        env.update(_closure_cells(walker, parsed, spec, env, first, copies))
    for param in fn.params.kwonly_params:
        name = param.name.value
        seen = _site_value(first, -1, name)
        if seen is not None and caller is not None and seen.kind != V.UNKNOWN:
            env[name] = walker.materialize(V.snapshot(seen, depth=64, memo=copies), caller, LocalSource(name), None)
        elif param.default is not None:
            env[name] = walker.materialize(literal(param.default, summary.imports), summary, LocalSource(name), None)
        else:
            env[name] = Value(V.UNKNOWN, source=LocalSource(name), confidence="low")
    if isinstance(fn.params.star_arg, cst.Param):
        env[fn.params.star_arg.name.value] = Value(V.TUPLE, source=LocalSource(fn.params.star_arg.name.value))
    if fn.params.star_kwarg is not None:
        env[fn.params.star_kwarg.name.value] = Value(V.DICT, source=LocalSource(fn.params.star_kwarg.name.value))
    return env


# How an entry was found when the program compiles it as its module binds it (decorators applied): a compile
# the eager run or the scan sees (`torch.compile(model)`, `model.compile()`, `@torch.compile`).
COMPILED_AS_WRITTEN = frozenset({"torch.compile", "call", "module.compile", "decorator"})


def decorated_root(walker: Walker, parsed: Parsed, spec: EntrySpec, fn: cst.FunctionDef, env: dict[str, Value],
                   calls: list[Site]) -> tuple[Act, cst.FunctionDef] | None:
    """The frame Dynamo compiles for a decorated entry (`@can_return_tuple def forward(self, ...)`): the
    outermost decorator's wrapper, which inlines the next one and, at the chain's end, the function. It
    is called with what the first call passes (the others are the function's defaults). Its guards are
    named as the function's parameters (`L['input_ids']` for the wrapper's `L['args'][0]`, `L['use_cache']`
    for `L['func'].__defaults__[0]`), as the runtime names a wrapper's frame after the function it wraps."""
    if spec.how not in COMPILED_AS_WRITTEN:
        return None  # `--entry file:Class.forward` names the code object Dynamo traces, not what wraps it
    summary = parsed.summary
    inside = _inside_compile(fn, summary.imports)  # `@timed @torch.compile def f`: `timed` wraps the compiled f
    if inside >= len(fn.decorators):
        return None
    params = positional_params(fn)
    receiver = params[0].name.value if params and spec.qualname.rpartition(".")[0] in summary.classes else None
    ref = f"{summary.module}.{spec.qualname}" if summary.module else spec.qualname
    func = Value(V.FUNC, ref=ref, bound_self=env.get(receiver) if receiver else None,
                 attrs={FRAME_DEFAULTS: V.const(True), "decorators_applied": inside})
    wrapped = walker.decorator_wrapper(parsed, fn, func)
    found = walker.function_node(wrapped) if wrapped is not None else None
    if found is None or not isinstance(found[1], cst.FunctionDef):
        return None
    wparsed, wrapper, closure, cls, qualname = found
    names = [p.name.value for p in params[1 if receiver else 0:]]
    first = calls[0] if calls else None
    positional = names[:len(first.args)] if first else names[:1]
    keywords = [n for n in names[len(positional):] if first and n in first.kwargs]
    args = [env[receiver]] if receiver else []
    args += [env[name] for name in positional if name in env]
    act = Act(parsed, spec.qualname, env)
    wenv = walker.bind(wrapper, wrapped, args, {name: env[name] for name in keywords if name in env}, wparsed, act, fn)
    return Act(wparsed, qualname, wenv, cls=cls, closure=closure), wrapper


def _inside_compile(fn: cst.FunctionDef, imports: dict[str, str]) -> int:
    """How many of the function's decorators are outside a `@torch.compile` among them (none when it has none)."""
    for index, decorator in enumerate(fn.decorators):
        target = decorator.decorator
        while isinstance(target, cst.Call):  # `@torch.compile(...)`, `@torch._dynamo.optimize("eager")`
            target = target.func
        if resolve(dotted(target) or "", imports) in COMPILE | OPTIMIZE:
            return index + 1
    return 0


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _default_confidence(default: Value, first: Site | None) -> str:
    """How sure the walk is that the frame sees a parameter's default (the calls in sight leave it
    out). With no call in sight, a `None` default is the weakest guess: callers usually pass a tensor
    there (`input_ids=None`), and Dynamo then guards TENSOR_MATCH on it, not `NONE_MATCH` (measured)."""
    if first is None and default.kind == V.CONST and default.known and default.value is None:
        return "low"
    return "high"


def _closure_cells(walker: Walker, parsed: Parsed, spec: EntrySpec, env: dict[str, Value],
                   call: Site | None, copies: dict[int, dict[str, Value]]) -> dict[str, Value]:
    """A nested compiled function's free variables are frame locals of its own frame
    (`L['k']`): their values are the cells of the closure the first compiled call is made
    on, else come from the enclosing function's first call site."""
    outer = spec.qualname.rsplit(".<locals>.", 1)[0]
    fn = parsed.functions.get(outer)
    if fn is None:
        return {}
    cells: dict[str, Value] = {}
    sites = spec.outer_calls
    first = sites[0] if sites else None
    held = call.cells if call else {}  # the closure the first compiled call was made on
    for index, param in enumerate(positional_params(fn)):
        name = param.name.value
        if name in env:
            continue
        seen = held.get(name) or _site_value(first, index, name)
        source = LocalSource(name)
        if seen is not None and seen.kind != V.UNKNOWN:
            cells[name] = walker.materialize(V.snapshot(seen, depth=64, memo=copies), parsed.summary, source, None)
        elif param.default is not None:
            cells[name] = walker.materialize(literal(param.default, parsed.summary.imports), parsed.summary, source, None)
    for name, seen in held.items():  # the enclosing function's own locals (`model = Net()` in `main()`)
        if name not in env and name not in cells and seen.kind != V.UNKNOWN:
            copy = V.snapshot(seen, depth=64, memo=copies)
            cells[name] = walker.materialize(copy, parsed.summary, LocalSource(name), None)
    entry_name = spec.qualname.rpartition(".")[2]
    body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else ()
    for stmt in body:
        # a sibling function the factory defines (`def report(y): ...`): a closure cell Dynamo inlines
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value != entry_name and stmt.name.value not in env:
            key = f"local:{id(stmt)}"
            walker.local_funcs[key] = (parsed, stmt, cells, None)
            cells[stmt.name.value] = Value(V.FUNC, ref=key)
    return cells


class _TensorUse:
    """Names used as the receiver of a method only tensors have (`x.sum()`, `x.view(...)`)."""

    def __init__(self, walker: Walker) -> None:
        self.walker = walker
        self.found: set[str] = set()

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if isinstance(node.value, cst.Name) and is_tensor_only_attribute(node.attr.value, self.walker.settings):
            self.found.add(node.value.value)


def _used_as_tensors(fn: cst.FunctionDef, walker: Walker) -> set[str]:
    """The names the body reads tensor-only attributes of (once per function and settings: every
    compile of the entry, every entry of a project that calls it, and the next lint ask again)."""
    memo = walker.project.memo_of(fn)
    key = ("tensor uses", fn, walker.settings)
    found = memo.get(key)
    if not isinstance(found, set):
        visitor = _TensorUse(walker)
        visit(fn.body, visitor)
        found = memo[key] = visitor.found
    return found


def _site_value(site: Site | None, index: int, name: str) -> Value | None:
    if site is None:
        return None
    if name in site.kwargs:
        return site.kwargs[name]
    if 0 <= index < len(site.args):
        return site.args[index]
    return None


def site_value(site: Site, params: list[str], name: str) -> Any:
    """The value a call site passes for parameter `name` (public for the recompile pass)."""
    return _site_value(site, params.index(name) if name in params else -1, name)
