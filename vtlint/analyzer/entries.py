"""Entry discovery: which functions torch.compile will trace, with which options.

Names resolve through the module's import table, minding the scopes that shadow
it (so `from torch import compile as tc` counts, and neither a module-level
function nor a parameter or local named `compile` does). Also collected here,
for the recompile analysis: the call sites of each compiled callable, the places
that assign attributes and globals, and the module's own `torch._dynamo.config`
assignments."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from vtlint.analyzer import values as V
from vtlint.analyzer.index import Parsed
from vtlint.analyzer.summary import dotted, literal, named_params, resolve
from vtlint.analyzer.traverse import visit
from vtlint.analyzer.values import Value
from vtlint.findings import Location

COMPILE = {"torch.compile"}
OPTIMIZE = {"torch._dynamo.optimize"}
REORDERABLE = "torch._dynamo.config.reorderable_logging_functions.add"
CONFIG_PREFIXES = ("torch._dynamo.config.", "torch.compiler.config.", "torch._inductor.config.")
MARK = {"torch._dynamo.mark_dynamic": "mark_dynamic", "torch._dynamo.mark_static": "mark_static",
        "torch._dynamo.maybe_mark_dynamic": "mark_dynamic"}
OPTION_NAMES = ("fullgraph", "dynamic", "backend", "mode")


@dataclass
class Site:
    """A place in the project with the values written there."""

    display: str
    line: int
    column: int
    args: list[Value] = field(default_factory=list)
    kwargs: dict[str, Value] = field(default_factory=dict)
    in_loop: bool = False  # inside a for/while in the caller
    iterations: int | None = 1  # how many times it runs, when the enclosing loops say (range(3), a literal list)
    loop_vars: frozenset[str] = frozenset()
    text: str = ""
    # the module globals holding objects, as they were when the call was made ("display:name")
    globals: dict[str, Value] = field(default_factory=dict)
    grad_enabled: bool | None = None  # grad mode at the call (Dynamo's GLOBAL_STATE guard), when known
    autocast: str | None = None  # the dtype of an autocast region the call is made in ("" outside one; None: not known)
    # a nested function's closure cells as the called closure holds them (frame locals to Dynamo: `L['k']`)
    cells: dict[str, Value] = field(default_factory=dict)
    # a call made while a compiled entry runs (a layer's frame): the project's call of that entry, which reaches it
    reached_at: Location | None = None

    @property
    def location(self) -> Location:
        return Location(self.display, self.line, self.column)


@dataclass
class EntrySpec:
    display: str
    qualname: str  # the function Dynamo traces: `f`, `StepCounter.forward`
    how: str
    options: dict[str, Any]
    line: int
    callables: set[str] = field(default_factory=set)  # local names bound to the compiled callable
    calls: list[Site] = field(default_factory=list)
    via_module: bool = False  # compiled as an nn.Module: `self` is L['self']
    outer_calls: list[Site] = field(default_factory=list)  # calls of the enclosing function (closures)
    compiled_at: Location | None = None  # the compile call (or decorator) in the project, when not `line` of `display`
    # a decorator wrapper's frame: its locals as the runtime names them (`L['hidden_states']` -> `L['args'][0]`)
    raw_locals: dict[str, str] = field(default_factory=dict)


@dataclass
class Mutation:
    """An assignment to a global or an attribute chain: `cfg.scale = 5`, `self.step += 1`."""

    target: str  # resolved dotted chain: `examples.seed.cfg.scale`, or `self.step` with `cls`
    site: Site
    value: Value
    function: str | None  # the enclosing function's qualname
    cls: str | None  # the enclosing class, for `self.` targets
    augmented: bool = False


@dataclass
class ModuleFacts:
    entries: list[EntrySpec] = field(default_factory=list)
    mutations: list[Mutation] = field(default_factory=list)
    calls: dict[str, list[Site]] = field(default_factory=dict)  # callee name as written -> sites
    config: dict[str, Any] = field(default_factory=dict)  # torch._dynamo.config overrides
    marks: list[tuple[str, str, int]] = field(default_factory=list)  # (mark_dynamic, arg, line)
    notes: list[tuple[int, str]] = field(default_factory=list)
    # `x.compile()` on a value the scanner cannot type (a model of another module): the eager run decides
    module_compiles: list[int] = field(default_factory=list)


def _wanted(name: str) -> bool:
    return name in COMPILE or name in OPTIMIZE or name in MARK or name.startswith(CONFIG_PREFIXES)


def _options(call: cst.Call, imports: dict[str, str], positional: tuple[str, ...] = ()) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for i, arg in enumerate(call.args):
        name = arg.keyword.value if arg.keyword else (positional[i] if i < len(positional) else None)
        if name in OPTION_NAMES:
            lit = literal(arg.value, imports)
            found[name] = lit.value if lit.kind == V.CONST else (lit.ref or "<dynamic>")
    return found


class _Scanner:
    def __init__(self, parsed: Parsed, with_entries: bool) -> None:
        self.p = parsed
        self.s = parsed.summary
        self.with_entries = with_entries
        self.functions: list[cst.FunctionDef] = []  # enclosing functions, innermost last
        self.local_names: dict[cst.FunctionDef, frozenset[str]] = {}  # computed when a lookup needs them
        self.facts = ModuleFacts()
        self.stack: list[tuple[str, str]] = []  # (name, kind)
        self.loops: list[frozenset[str]] = []
        self.local_bindings: list[dict[str, cst.BaseExpression]] = [{}]
        self.loop_iters: dict[str, cst.BaseExpression] = {}  # loop variable -> what it iterates
        self.loop_assigned: list[frozenset[str]] = []  # names each enclosing loop's body assigns
        self.loop_counts: list[int | None] = []
        self.global_names: list[set[str]] = [set()]  # `global X` in each enclosing function

    # helpers -----------------------------------------------------------------
    def qnames(self, node: cst.CSTNode) -> set[str]:
        """What a name or attribute chain refers to: through the import table, unless an
        enclosing function binds its head (a parameter or an assignment) or the module
        defines it without importing it. Python's own scoping, without the
        cost of LibCST's ScopeProvider on every lint."""
        name = dotted(node) if isinstance(node, cst.BaseExpression) else None
        if not name:
            return set()
        head = name.partition(".")[0]
        if head not in self.s.imports:
            return {f"{self.s.module}.{name}" if head in self.s.functions or head in self.s.classes else name}
        resolved = resolve(name, self.s.imports)
        # only a name this scan acts on is worth the enclosing functions' bindings
        if _wanted(resolved) and any(head in self._locals(fn) for fn in self.functions):
            return {self.qual(name)}
        return {resolved}

    def _locals(self, fn: cst.FunctionDef) -> frozenset[str]:
        if fn not in self.local_names:
            params = fn.params
            names = {p.name.value for p in named_params(fn)}
            for star in (params.star_arg, params.star_kwarg):
                if isinstance(star, cst.Param):
                    names.add(star.name.value)
            self.local_names[fn] = frozenset(names) | _assigned_names(fn.body)
        return self.local_names[fn]

    def qual(self, name: str) -> str:
        parts: list[str] = []
        for outer, kind in self.stack:
            parts += [outer, "<locals>"] if kind == "function" else [outer]
        return ".".join([*parts, name])

    def site(self, node: cst.CSTNode, args: list[Value] | None = None, kwargs: dict[str, Value] | None = None) -> Site:
        line, col, _, _ = self.p.span(node)
        loop_vars = frozenset().union(*self.loops) if self.loops else frozenset()
        iterations: int | None = 1
        for count in self.loop_counts:
            iterations = iterations * count if iterations is not None and count is not None else None
        return Site(self.s.display, line, col, args or [], kwargs or {}, in_loop=bool(self.loops),
                    loop_vars=loop_vars, iterations=iterations)

    def enclosing_function(self) -> str | None:
        names = [n for n, k in self.stack]
        return ".".join(names) if self.stack and self.stack[-1][1] == "function" else None

    def enclosing_class(self) -> str | None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][1] == "class":
                return ".".join(n for n, _ in self.stack[: i + 1])
        return None

    def value_of(self, expr: cst.BaseExpression, seen: frozenset[str] = frozenset()) -> Value:
        """A call argument's abstract value, looking through simple local bindings
        (`seen`: the names already followed, so `y = y` or `a = b; b = a` end)."""
        lit = literal(expr, self.s.imports)
        if lit.kind == V.NAME and isinstance(expr, cst.Name):
            if expr.value in seen:
                return V.unknown("low")
            seen = seen | {expr.value}
            bound = self.local_bindings[-1].get(expr.value)
            if expr.value in (frozenset().union(*self.loops) if self.loops else ()):
                # the first iteration's value compiles; every later one fails its guard
                first = self._first_element(self.loop_iters.get(expr.value))
                return first.with_(ref=f"loop:{expr.value}", confidence="medium")
            if bound is not None and any(expr.value in names for names in self.loop_assigned):
                # reassigned on every iteration (`lr *= 0.5`): the value at the first call compiles
                return self.value_of(bound, seen).with_(ref=f"loop:{expr.value}", confidence="medium")
            if bound is not None:
                return self.value_of(bound, seen)
        if lit.kind == V.CALL and lit.ref and lit.ref.startswith("torch.") and lit.ref.split(".")[-1][:1].islower():
            return Value(V.TENSOR)
        return lit

    def _first_element(self, iterable: cst.BaseExpression | None) -> Value:
        if isinstance(iterable, cst.Name):
            iterable = self.local_bindings[-1].get(iterable.value, iterable)
        lit = literal(iterable, self.s.imports) if iterable is not None else V.unknown()
        if lit.kind in (V.LIST, V.TUPLE) and lit.items:
            return lit.items[0]
        if isinstance(iterable, cst.Call) and dotted(iterable.func) == "range" and iterable.args:
            start = literal(iterable.args[0].value, self.s.imports) if len(iterable.args) > 1 else V.const(0)
            return start if start.kind == V.CONST else V.unknown("medium")
        return V.unknown("medium")

    # scopes ------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self.with_entries:
            for dec in node.decorators:
                self._decorator(node, dec)
        self.stack.append((node.name.value, "function"))
        self.functions.append(node)
        self.local_bindings.append({})
        self.global_names.append(set())

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()
        self.functions.pop()
        self.local_bindings.pop()
        self.global_names.pop()

    def visit_Global(self, node: cst.Global) -> None:
        self.global_names[-1].update(n.name.value for n in node.names)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.stack.append((node.name.value, "class"))

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.stack.pop()

    def visit_For(self, node: cst.For) -> None:
        targets = {n.value for n in _names(node.target)}
        for name in targets:
            self.loop_iters[name] = node.iter
        self.loops.append(frozenset(targets))
        self.loop_assigned.append(_assigned_names(node.body))
        self.loop_counts.append(self._count(node.iter))

    def leave_For(self, original_node: cst.For) -> None:
        self.loops.pop()
        self.loop_assigned.pop()
        self.loop_counts.pop()

    def visit_While(self, node: cst.While) -> None:
        self.loops.append(frozenset())
        self.loop_assigned.append(_assigned_names(node.body))
        self.loop_counts.append(None)

    def leave_While(self, original_node: cst.While) -> None:
        self.loops.pop()
        self.loop_assigned.pop()
        self.loop_counts.pop()

    def _count(self, iterable: cst.BaseExpression) -> int | None:
        """Iterations of `for ... in range(3)` / a literal list; None when unknown."""
        if isinstance(iterable, cst.Call) and dotted(iterable.func) == "range" and iterable.args:
            bounds = [literal(a.value, self.s.imports) for a in iterable.args]
            if all(b.kind == V.CONST and isinstance(b.value, int) for b in bounds):
                try:
                    return len(range(*[b.value for b in bounds]))
                except (TypeError, ValueError):
                    return None
            return None
        lit = literal(iterable, self.s.imports)
        return len(lit.items) if lit.kind in (V.LIST, V.TUPLE) and lit.items is not None else None

    # entries -----------------------------------------------------------------
    def _decorator(self, fn: cst.FunctionDef, dec: cst.Decorator) -> None:
        target = dec.decorator
        call = target if isinstance(target, cst.Call) else None
        names = self.qnames(call.func if call else target)
        if call is not None and isinstance(call.func, cst.Call):  # @torch._dynamo.optimize("eager")
            names = self.qnames(call.func.func)
        options: dict[str, Any] = {}
        if names & COMPILE:
            options = _options(call, self.s.imports) if call else {}
        elif names & OPTIMIZE and call is not None:
            options = _options(call, self.s.imports, ("backend",))
        else:
            return
        qual = self.qual(fn.name.value)
        entry = EntrySpec(self.s.display, qual, "decorator", options, self.p.line(fn))
        entry.callables.add(fn.name.value)
        self.facts.entries.append(entry)

    def visit_Call(self, node: cst.Call) -> None:
        names = self.qnames(node.func)
        if self.with_entries:
            if names & COMPILE and node.args and not node.args[0].keyword:
                self._compile_call(node, node.args[0].value, _options(node, self.s.imports))
            elif isinstance(node.func, cst.Call) and self.qnames(node.func.func) & OPTIMIZE and node.args:
                self._compile_call(node, node.args[0].value, _options(node.func, self.s.imports, ("backend",)))
            elif isinstance(node.func, cst.Attribute) and node.func.attr.value == "compile" and not names & COMPILE:
                self._module_compile(node)
        if not self.stack and REORDERABLE in names:  # `torch._dynamo.config.reorderable_logging_functions.add(print)`
            added = (dotted(a.value) for a in node.args if not a.keyword and not a.star)
            known = self.facts.config.get("reorderable_logging_functions", ())
            self.facts.config["reorderable_logging_functions"] = (*known, *(n for n in added if n))
        for name in names:
            if name in MARK and node.args:
                self.facts.marks.append((MARK[name], self.p.module.code_for_node(node.args[0].value), self.p.line(node)))
        callee = dotted(node.func)
        if callee is not None:
            args = [self.value_of(a.value) for a in node.args if not a.keyword and not a.star]
            kwargs = {a.keyword.value: self.value_of(a.value) for a in node.args if a.keyword}
            site = self.site(node, args, kwargs)
            site.text = callee
            self.facts.calls.setdefault(callee, []).append(site)

    def _compile_call(self, call: cst.Call, target: cst.BaseExpression, options: dict[str, Any]) -> None:
        qual, how, via_module = self._compiled_target(target)
        if qual is None:
            self.facts.notes.append((self.p.line(call), "torch.compile of a value the static pass cannot resolve"))
            return
        entry = EntrySpec(self.s.display, qual, how, options, self.p.line(call), via_module=via_module)
        parent = self._assigned_name(call)
        if parent:
            entry.callables.add(parent)
        self.facts.entries.append(entry)

    def _compiled_target(self, target: cst.BaseExpression) -> tuple[str | None, str, bool]:
        """f -> `f`; SomeModule(...) or a name bound to it -> `SomeModule.forward`."""
        if isinstance(target, cst.Call):
            cls = dotted(target.func)
            if cls and cls in self.s.classes:
                return f"{cls}.forward", "call", True
            return None, "call", False
        name = dotted(target)
        if name is None:
            return None, "call", False
        if name in self.s.functions:
            return name, "call", False
        local = self.qual(name)
        if local in self.s.functions:
            return local, "call", False
        bound = self.local_bindings[-1].get(name) or self.local_bindings[0].get(name)
        if isinstance(bound, cst.Call):
            return self._compiled_target(bound)
        return None, "call", False

    def _module_compile(self, call: cst.Call) -> None:
        """`model.compile()` on an instance of a project nn.Module."""
        assert isinstance(call.func, cst.Attribute)
        owner = call.func.value
        if isinstance(owner, cst.Name):
            bound = self.local_bindings[-1].get(owner.value) or self.local_bindings[0].get(owner.value)
            if isinstance(bound, cst.Call):
                cls = dotted(bound.func)
                if cls and cls in self.s.classes:
                    entry = EntrySpec(self.s.display, f"{cls}.forward", "module.compile",
                                      _options(call, self.s.imports), self.p.line(call), via_module=True)
                    entry.callables.add(owner.value)
                    self.facts.entries.append(entry)
                    return
        if not call.args:
            self.facts.module_compiles.append(self.p.line(call))

    def _assigned_name(self, call: cst.Call) -> str | None:
        return self._pending_assign if getattr(self, "_pending_value", None) is call else None

    # assignments -------------------------------------------------------------
    def visit_Assign(self, node: cst.Assign) -> None:
        self._pending_value = node.value
        self._pending_assign = None
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self._pending_assign = target.target.value
            self._mutation(target.target, node.value, node, augmented=False)

    def leave_Assign(self, original_node: cst.Assign) -> None:
        # bound after its value is visited: a call in `w = f(w)` still sees the previous `w`
        for target in original_node.targets:
            if isinstance(target.target, cst.Name):
                self.local_bindings[-1][target.target.value] = original_node.value

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._mutation(node.target, node.value, node, augmented=True)

    def _mutation(self, target: cst.BaseExpression, value: cst.BaseExpression, node: cst.CSTNode, augmented: bool) -> None:
        chain = dotted(target)
        if chain is None:
            return
        func = self.enclosing_function()
        head, _, rest = chain.partition(".")
        if not self.stack:
            if not rest:
                if any(chain.startswith(p) for p in CONFIG_PREFIXES):
                    return
                # module level: a rebinding matters only when it happens twice
                if chain not in self.s.reassigned:
                    return
            names = self.qnames(target)
            config = next((n for n in names if n.startswith(CONFIG_PREFIXES)), None)
            if config is not None:
                lit = literal(value, self.s.imports)
                self.facts.config[config.rpartition(".")[2]] = lit.value if lit.kind == V.CONST else V.MISSING
                return
        if head == "self" and rest:
            resolved = chain
        elif not rest and func is not None and head not in self.global_names[-1]:
            return  # a local variable
        else:
            resolved = resolve(chain, self.s.imports)
            if head in self.s.globals or head in self.s.classes:
                resolved = f"{self.s.module}.{chain}"
        lit = literal(value, self.s.imports)
        self.facts.mutations.append(
            Mutation(resolved, self.site(node), lit, func, self.enclosing_class(), augmented)
        )


class _Assigned:
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self.names.update(n.value for n in _names(node.target))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.names.update(n.value for n in _names(node.target))


def _assigned_names(body: cst.BaseSuite) -> frozenset[str]:
    visitor = _Assigned()
    visit(body, visitor)
    return frozenset(visitor.names)


def _names(node: cst.BaseExpression) -> list[cst.Name]:
    if isinstance(node, cst.Name):
        return [node]
    if isinstance(node, (cst.Tuple, cst.List)):
        return [n for e in node.elements for n in _names(e.value)]
    return []


def scan(parsed: Parsed, with_entries: bool) -> ModuleFacts:
    """Entries (with `with_entries`) and the sites of one module."""
    scanner = _Scanner(parsed, with_entries)
    visit(parsed.module, scanner)
    return scanner.facts


def _ast_dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _ast_dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _ast_statements(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every statement, nested ones included, without entering expressions (an import is a statement)."""
    stack = list(reversed(body))
    while stack:
        stmt = stack.pop()
        yield stmt
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(stmt, name, None)
            if isinstance(inner, list):
                stack += reversed([s for s in inner if isinstance(s, (ast.stmt, ast.excepthandler, ast.match_case))])


def _ast_imports(body: list[ast.stmt]) -> dict[str, str]:
    """Local name -> dotted name of the absolute imports (torch is never imported relatively)."""
    imports: dict[str, str] = {}
    for node in _ast_statements(body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    imports[alias.asname] = alias.name
                else:
                    head = alias.name.split(".")[0]
                    imports.setdefault(head, head)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                imports[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return imports


def worth_scanning(body: list[ast.stmt]) -> bool:
    """Whether a module may compile something or configure Dynamo, judged on Python's
    own (fast) tree and its imports: LibCST's positions and the entry scan cost more
    than the parse, so only such modules pay for them."""
    wanted = COMPILE | OPTIMIZE | set(MARK)
    imports = _ast_imports(body)
    for node in (node for stmt in body for node in ast.walk(stmt)):
        if isinstance(node, ast.Call):
            func = node.func.func if isinstance(node.func, ast.Call) else node.func
            name = _ast_dotted(func)
            if name and resolve(name, imports) in wanted:
                return True
            if isinstance(node.func, ast.Attribute) and node.func.attr == "compile" and not node.args:
                return True  # model.compile()
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in node.decorator_list:
                name = _ast_dotted(dec.func if isinstance(dec, ast.Call) else dec)
                target = dec.func.func if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Call) else None
                if (name and resolve(name, imports) in wanted) or (
                        target is not None and resolve(_ast_dotted(target) or "", imports) in wanted):
                    return True
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                name = _ast_dotted(target)
                if name and resolve(name, imports).startswith(CONFIG_PREFIXES):
                    return True
    return False
