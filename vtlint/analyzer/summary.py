"""One pass over a parsed module: what other modules need to know about it.

The summary is plain data (cached per content hash, built in worker processes):
imports, functions, classes with the attributes their bodies and `__init__`
assign, module-level constants, and a flag saying whether the module mentions
anything that can create a compiled entry. No positions are computed here
(LibCST's PositionProvider costs more than parsing); the walk resolves them for
the few modules it enters."""

from __future__ import annotations

import operator
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import libcst as cst

from vtlint.analyzer import values as V
from vtlint.analyzer.bounds import ITEMS, MAX_ITEMS
from vtlint.analyzer.values import Value

# Text without which a module cannot create a compiled entry or change Dynamo's config
# (`re.compile` alone does not count: only these modules pay for name resolution).
ENTRY_HINTS = re.compile(
    r"torch\.compile\b|\.compile\((?:\s*\)|\s*\w+\s*=)|import[^\n]*\bcompile\b|\boptimize\("
    r"|_dynamo\.config\.|compiler\.config\.|mark_dynamic|mark_static|import\s+torch\s+as\s"
)


@dataclass
class FunctionSummary:
    qualname: str
    params: list[str]
    defaults: dict[str, Value]
    decorators: list[str]
    vararg: str | None = None
    kwarg: str | None = None
    returns: str | None = None  # the scalar type its return annotation declares (`-> bool`)
    made_by: str | None = None  # the callee of the `return make(...)` ending its body, import-resolved


@dataclass
class ClassSummary:
    qualname: str
    bases: list[str]  # dotted names as resolved through imports
    class_attrs: dict[str, Value] = field(default_factory=dict)
    init_attrs: dict[str, Value] = field(default_factory=dict)
    methods: list[str] = field(default_factory=list)
    decorators: list[str] = field(default_factory=list)
    metaclass: str | None = None
    fields: list[str] = field(default_factory=list)  # annotated class-level names (a dataclass's fields)
    field_types: dict[str, str] = field(default_factory=dict)  # a field's scalar type: `eps: float` -> "float"
    optional_keys: bool = False  # a TypedDict's keys are not all required (`total=False`, `NotRequired[...]`)


@dataclass
class ModuleSummary:
    display: str
    module: str  # dotted module name relative to the project root
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted
    functions: dict[str, FunctionSummary] = field(default_factory=dict)
    classes: dict[str, ClassSummary] = field(default_factory=dict)
    globals: dict[str, Value] = field(default_factory=dict)
    reassigned: set[str] = field(default_factory=set)  # globals assigned more than once
    star_imports: list[str] = field(default_factory=list)
    dynamic_features: list[str] = field(default_factory=list)  # exec, eval, setattr, globals()
    has_hints: bool = False
    # its top level does more than bind names: decorators called with arguments (`@register("silu")`),
    # calls and stores into its objects (`REGISTRY.update(...)`, `ACT["gelu"] = gelu`); importing it runs them
    import_effects: bool = False


def dotted(node: cst.BaseExpression) -> str | None:
    """`torch.nn.Linear` as a string, or None for anything but names and attributes."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def _made_by(node: cst.FunctionDef, imports: dict[str, str]) -> str | None:
    """`get_logger` ending in `return logging.getLogger(name)`: what makes the object it returns."""
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    last = body[-1] if body else None
    if not isinstance(last, cst.SimpleStatementLine) or not isinstance(last.body[0], cst.Return):
        return None
    value = last.body[0].value
    callee = dotted(value.func) if isinstance(value, cst.Call) else None
    return resolve(callee, imports) if callee else None


def resolve(name: str, imports: dict[str, str]) -> str:
    """A dotted name as spelled, rewritten through the module's import aliases."""
    head, _, rest = name.partition(".")
    target = imports.get(head)
    if target is None:
        return name
    return f"{target}.{rest}" if rest else target


_INSTALL_DIRS = ("site-packages", "dist-packages")


def module_name(display: str) -> str:
    """The dotted name Python imports the file as: relative to the project root, or for an
    installed package's file to its site-packages (`.../site-packages/tqdm/std.py` -> `tqdm.std`)."""
    parts = display.removesuffix(".pyi").removesuffix(".py").split("/")
    installed = [i for i, part in enumerate(parts) if part in _INSTALL_DIRS]
    if installed:
        parts = parts[installed[-1] + 1:]
    elif display.startswith("/"):
        roots = [Path(p).as_posix().rstrip("/") + "/" for p in sys.path if p.startswith("/")]
        root = max((r for r in roots if display.startswith(r)), key=len, default=None)
        if root is not None:
            parts = display[len(root):].removesuffix(".pyi").removesuffix(".py").split("/")
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(p for p in parts if p not in ("", ".", ".."))


BINOPS = {
    cst.Add: operator.add, cst.Subtract: operator.sub, cst.Multiply: operator.mul,
    cst.Divide: operator.truediv, cst.FloorDivide: operator.floordiv, cst.Modulo: operator.mod,
    cst.Power: operator.pow, cst.BitAnd: operator.and_, cst.BitOr: operator.or_, cst.BitXor: operator.xor,
    cst.LeftShift: operator.lshift, cst.RightShift: operator.rshift, cst.MatrixMultiply: operator.matmul,
}
_MAX_EXPONENT = 256  # `2.0 ** 8` folds; `10 ** 10**9` is not computed
_MAX_FOLDED = 16  # operators in one folded expression


def _operations(node: cst.BinaryOperation) -> int:
    """How many operators the expression holds, counted up to just past `_MAX_FOLDED` (no recursion)."""
    count, stack = 0, [node]
    while stack and count <= _MAX_FOLDED:
        current = stack.pop()
        if isinstance(current, cst.BinaryOperation):
            count += 1
            stack += [current.left, current.right]
    return count


def literal(node: cst.BaseExpression, imports: dict[str, str]) -> Value:
    """The abstract value of an expression written at module or class level."""
    if isinstance(node, cst.Integer):
        return V.const(int(node.value.replace("_", ""), 0))
    if isinstance(node, cst.Float):
        return V.const(float(node.value.replace("_", "")))
    if isinstance(node, cst.SimpleString):
        try:
            return V.const(node.evaluated_value)
        except Exception:  # noqa: BLE001 - an unusual prefix: unknown, not a crash
            return V.unknown()
    if isinstance(node, cst.ConcatenatedString):
        value = node.evaluated_value
        return V.const(value) if isinstance(value, str) else V.unknown()
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return V.const({"True": True, "False": False, "None": None}[node.value])
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = literal(node.expression, imports)
        if inner.kind == V.CONST and isinstance(inner.value, (int, float)) and not isinstance(inner.value, bool):
            return V.const(-inner.value)
        return V.unknown()
    if isinstance(node, cst.BinaryOperation) and type(node.operator) in BINOPS:
        return _folded(node, imports)  # `init_scale=2.0 ** 8`: Python folds it when the def runs
    if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        if any(not isinstance(e, cst.Element) for e in node.elements):
            return V.unknown()
        kind = V.LIST if isinstance(node, cst.List) else V.TUPLE if isinstance(node, cst.Tuple) else V.SET
        if len(node.elements) > MAX_ITEMS:  # a dataset written out (`DATA = [...]` of 200,000 numbers)
            return V.too_large(None, ITEMS, kind=kind)
        return Value(kind, items=[literal(e.value, imports) for e in node.elements])
    if isinstance(node, cst.Dict) and len(node.elements) > MAX_ITEMS:
        return V.too_large(None, ITEMS, kind=V.DICT)
    if isinstance(node, cst.Dict):
        keys, items = [], []
        for element in node.elements:
            if not isinstance(element, cst.DictElement):
                return V.unknown()
            key = literal(element.key, imports)
            if key.kind != V.CONST:
                return V.unknown()
            keys.append(key.value)
            items.append(literal(element.value, imports))
        return Value(V.DICT, keys=keys, items=items)
    if isinstance(node, cst.Call):
        name = dotted(node.func)
        if not name:
            return V.unknown()
        args = [literal(a.value, imports) for a in node.args if a.keyword is None and not a.star]
        kwargs = {a.keyword.value: literal(a.value, imports) for a in node.args if a.keyword is not None}
        if any(a.star for a in node.args):
            args = None  # a spread: the positions are unknown
        return Value(V.CALL, ref=resolve(name, imports), items=args, attrs=kwargs)
    name = dotted(node)
    if name is not None:
        return Value(V.NAME, ref=resolve(name, imports))
    return V.unknown()


_SCALARS = ("int", "float", "bool", "str")
SETTER = ".fset"  # a property's setter, by the getter's qualified name and this suffix


def _is_class_var(annotation: cst.BaseExpression) -> bool:
    """`ClassVar[str]` (`typing.ClassVar`, bare `ClassVar`): what a dataclass leaves out of its fields."""
    target = annotation.value if isinstance(annotation, cst.Subscript) else annotation
    name = dotted(target)
    return name is not None and name.rpartition(".")[2] == "ClassVar"


def scalar_annotation(node: cst.BaseExpression) -> str | None:
    """The Python scalar type an annotation declares (`int`, `float`, `bool`, `str`; `float | int`
    is a float: Dynamo guards both by value), or None when it admits anything else (`int | None`)."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        left, right = scalar_annotation(node.left), scalar_annotation(node.right)
        return "float" if {left, right} == {"int", "float"} else (left if left == right else None)
    name = dotted(node)
    return name if name in _SCALARS else None


def positional_params(fn: cst.FunctionDef | cst.Lambda) -> list[cst.Param]:
    """The parameters a call fills by position (positional-only, then the others), in order."""
    return [*fn.params.posonly_params, *fn.params.params]


def named_params(fn: cst.FunctionDef | cst.Lambda) -> list[cst.Param]:
    """The parameters a call can fill by name: the positional ones, then the keyword-only ones."""
    return [*positional_params(fn), *fn.params.kwonly_params]


def _field_default(node: cst.BaseExpression, imports: dict[str, str]) -> Value:
    """A class-level annotated default; for a dataclass `field(default=...)` or
    `field(default_factory=...)`, the value each instance starts with."""
    if not (isinstance(node, cst.Call) and resolve(dotted(node.func) or "", imports) == "dataclasses.field"):
        return literal(node, imports)
    for arg in node.args:
        name = arg.keyword.value if arg.keyword else None
        if name == "default":
            return literal(arg.value, imports)
        if name == "default_factory":
            if isinstance(arg.value, cst.Lambda):
                return literal(arg.value.body, imports)
            factory = resolve(dotted(arg.value) or "", imports)
            if factory in ("list", "tuple"):
                return Value(V.LIST if factory == "list" else V.TUPLE, items=[])
            if factory == "dict":
                return Value(V.DICT, keys=[], items=[])
            return Value(V.CALL, ref=factory, items=[], attrs={}) if factory else V.unknown()
    return V.unknown()


def _param_info(params: cst.Parameters, imports: dict[str, str]) -> tuple[list[str], dict[str, Value], str | None, str | None]:
    names: list[str] = []
    defaults: dict[str, Value] = {}
    for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
        names.append(param.name.value)
        if param.default is not None:
            defaults[param.name.value] = literal(param.default, imports)
    vararg = params.star_arg.name.value if isinstance(params.star_arg, cst.Param) else None
    kwarg = params.star_kwarg.name.value if params.star_kwarg else None
    return names, defaults, vararg, kwarg


def _decorator_names(node: cst.FunctionDef | cst.ClassDef, imports: dict[str, str]) -> list[str]:
    found = []
    for dec in node.decorators:
        target = dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator
        name = dotted(target)
        if name:
            found.append(resolve(name, imports))
    return found


class _Summarizer(cst.CSTVisitor):
    def __init__(self, summary: ModuleSummary) -> None:
        self.s = summary
        self.scope: list[str] = []  # enclosing class/function names
        self.kinds: list[str] = []  # "class" | "function"

    # imports -----------------------------------------------------------------
    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            name = dotted(alias.name) or ""
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.s.imports[alias.asname.name.value] = name
            else:
                head = name.split(".")[0]
                self.s.imports.setdefault(head, head)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        base = dotted(node.module) if node.module else ""
        if node.relative:
            package = self.s.module.split(".")
            if not self.s.display.endswith("__init__.py"):
                package = package[:-1]
            depth = len(node.relative) - 1
            package = package[: len(package) - depth] if depth else package
            base = ".".join([*package, base] if base else package)
        if isinstance(node.names, cst.ImportStar):
            self.s.star_imports.append(base or "")
            return
        for alias in node.names:
            name = dotted(alias.name) or ""
            local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name
            self.s.imports[local] = f"{base}.{name}" if base else name

    # definitions -------------------------------------------------------------
    def _qual(self, name: str) -> str:
        parts = []
        for outer, kind in zip(self.scope, self.kinds):
            parts.append(outer)
            if kind == "function":
                parts.append("<locals>")
        return ".".join([*parts, name])

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        qual = self._qual(node.name.value)
        names, defaults, vararg, kwarg = _param_info(node.params, self.s.imports)
        decorators = _decorator_names(node, self.s.imports)
        returns = scalar_annotation(node.returns.annotation) if node.returns is not None else None
        if f"{node.name.value}.setter" in decorators:
            qual = f"{qual}{SETTER}"  # the property's getter keeps the name
        self.s.functions[qual] = FunctionSummary(qual, names, defaults, decorators, vararg, kwarg, returns,
                                                 _made_by(node, self.s.imports))
        if self.kinds and self.kinds[-1] == "class":
            cls = self.s.classes.get(self._qual_of_enclosing())
            if cls is not None:
                cls.methods.append(node.name.value)
                if node.name.value == "__init__":
                    self._collect_init(node, cls)
        self.scope.append(node.name.value)
        self.kinds.append("function")

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.scope.pop()
        self.kinds.pop()

    def _qual_of_enclosing(self) -> str:
        return ".".join(
            part
            for i, outer in enumerate(self.scope)
            for part in ([outer, "<locals>"] if self.kinds[i] == "function" else [outer])
        )

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        qual = self._qual(node.name.value)
        bases = [resolve(n, self.s.imports) for n in (dotted(a.value) for a in node.bases if not a.keyword) if n]
        metaclass = next((dotted(a.value) for a in node.bases if a.keyword and a.keyword.value == "metaclass"), None)
        cls = ClassSummary(qual, bases, decorators=_decorator_names(node, self.s.imports), metaclass=metaclass)
        cls.optional_keys = any(a.keyword is not None and a.keyword.value == "total" and dotted(a.value) == "False"
                                for a in node.keywords)
        for stmt in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
            for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        if isinstance(target.target, cst.Name):
                            cls.class_attrs[target.target.value] = literal(small.value, self.s.imports)
                elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    if _is_class_var(small.annotation.annotation):  # not a dataclass field: a class attribute
                        if small.value is not None:
                            cls.class_attrs[small.target.value] = literal(small.value, self.s.imports)
                        continue
                    cls.fields.append(small.target.value)
                    wrapper = small.annotation.annotation
                    wrapper = wrapper.value if isinstance(wrapper, cst.Subscript) else None
                    cls.optional_keys |= wrapper is not None and (dotted(wrapper) or "").endswith("NotRequired")
                    scalar = scalar_annotation(small.annotation.annotation)
                    if scalar is not None:
                        cls.field_types[small.target.value] = scalar
                    if small.value is not None:
                        cls.class_attrs[small.target.value] = _field_default(small.value, self.s.imports)
                    else:
                        cls.class_attrs.setdefault(small.target.value, V.unknown())
        self.s.classes[qual] = cls
        self.scope.append(node.name.value)
        self.kinds.append("class")

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.scope.pop()
        self.kinds.pop()

    def _collect_init(self, node: cst.FunctionDef, cls: ClassSummary) -> None:
        """`self.X = <literal>` in `__init__`: the instance attributes Dynamo will read."""
        params = {p.name.value: p for p in node.params.params}
        for stmt in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
            for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
                targets: list[cst.BaseExpression] = []
                value: cst.BaseExpression | None = None
                if isinstance(small, cst.Assign):
                    targets, value = [t.target for t in small.targets], small.value
                elif isinstance(small, cst.AnnAssign) and small.value is not None:
                    targets, value = [small.target], small.value
                for target in targets:
                    if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self":
                        lit = literal(value, self.s.imports) if value is not None else V.unknown()
                        if lit.kind == V.NAME and lit.ref in params:
                            default = params[lit.ref].default
                            lit = literal(default, self.s.imports) if default is not None else V.unknown()
                            lit.confidence = "medium"
                        cls.init_attrs.setdefault(target.attr.value, lit)

    # module level ------------------------------------------------------------
    def visit_Assign(self, node: cst.Assign) -> None:
        if self.scope:
            return
        for target in node.targets:
            if isinstance(target.target, (cst.Tuple, cst.List)):
                # `_npu_available, _npu_version = _is_package_available("torch_npu")`: bound, to values the
                # summary does not hold (the import runs the statement: `has_effects`)
                for element in target.target.elements:
                    if isinstance(element.value, cst.Name):
                        self._global(element.value.value, V.unknown())
                continue
            if not isinstance(target.target, cst.Name):
                continue
            if isinstance(node.value, cst.Lambda):  # `square = lambda t: t * t`: a function Dynamo inlines
                names, defaults, vararg, kwarg = _param_info(node.value.params, self.s.imports)
                self.s.functions[target.target.value] = FunctionSummary(target.target.value, names, defaults, [],
                                                                        vararg, kwarg)
            else:
                self._global(target.target.value, literal(node.value, self.s.imports))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if not self.scope and isinstance(node.target, cst.Name) and node.value is not None:
            self._global(node.target.value, literal(node.value, self.s.imports))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if not self.scope and isinstance(node.target, cst.Name):
            self.s.reassigned.add(node.target.value)

    def _global(self, name: str, value: Value) -> None:
        if name in self.s.globals:
            self.s.reassigned.add(name)
            return
        self.s.globals[name] = value



_DYNAMIC = re.compile(r"\b(exec|eval|setattr|globals|__import__)\(")


def walk_statements(body: list[cst.BaseStatement] | tuple[cst.BaseStatement, ...], visitor: cst.CSTVisitor) -> None:
    """Visit statements only, never expressions: definitions, imports and assignments
    all live at statement level, and skipping expressions makes this pass a fraction
    of the parse instead of a multiple of it. Calls `visit_<Type>`/`leave_<Type>`."""
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                method = getattr(visitor, f"visit_{type(small).__name__}", None)
                if method is not None:
                    method(small)
            continue
        name = type(stmt).__name__
        enter = getattr(visitor, f"visit_{name}", None)
        if enter is not None:
            enter(stmt)
        for suite in _suites(stmt):
            if isinstance(suite, cst.IndentedBlock):
                walk_statements(suite.body, visitor)
            elif isinstance(suite, cst.SimpleStatementSuite):
                walk_statements([cst.SimpleStatementLine(body=suite.body)], visitor)
        leave = getattr(visitor, f"leave_{name}", None)
        if leave is not None:
            leave(stmt)


def _suites(stmt: cst.BaseStatement) -> list[cst.BaseSuite]:
    suites: list[cst.BaseSuite] = []
    body = getattr(stmt, "body", None)
    if isinstance(body, cst.BaseSuite):
        suites.append(body)
    for handler in getattr(stmt, "handlers", ()):
        suites.append(handler.body)
    orelse = getattr(stmt, "orelse", None)
    while orelse is not None:
        suites.append(orelse.body)
        orelse = getattr(orelse, "orelse", None) if isinstance(orelse, cst.If) else None
    final = getattr(stmt, "finalbody", None)
    if final is not None:
        suites.append(final.body)
    for case in getattr(stmt, "cases", ()):
        suites.append(case.body)
    return suites


def summarize(module: cst.Module, display: str, text: str,
              memo_of: Callable[[cst.CSTNode], dict[Any, Any] | None] | None = None) -> ModuleSummary:
    """`memo_of`: where a statement's share of the summary is kept between lints (its chunk's
    memo): a statement an edit did not touch, read with the same imports, is not walked again."""
    summary = ModuleSummary(display=display, module=module_name(display))
    summary.has_hints = ENTRY_HINTS.search(text) is not None
    summary.dynamic_features = sorted(set(_DYNAMIC.findall(text)))
    if memo_of is None:
        walk_statements(module.body, _Summarizer(summary))
    else:
        for stmt in module.body:
            _add_share(summary, _share(summary, stmt, memo_of(stmt)))
    summary.import_effects = any(has_effects(stmt, summary.imports) for stmt in module.body)
    return summary


def _share(summary: ModuleSummary, stmt: cst.BaseStatement, memo: dict[Any, Any] | None) -> ModuleSummary:
    """What `stmt` adds to the summary so far: it reads nothing of it but the imports (names
    resolve through them), so a share summarized under the same imports is the same."""
    key = ("summary share", stmt)
    kept = memo.get(key) if memo is not None else None
    if kept is not None and kept.imports_before == summary.imports:
        return kept.share
    share = ModuleSummary(display=summary.display, module=summary.module, imports=dict(summary.imports))
    walk_statements([stmt], _Summarizer(share))
    if memo is not None:
        memo[key] = _Share(dict(summary.imports), share)
    return share


@dataclass
class _Share:
    imports_before: dict[str, str]
    share: ModuleSummary


def _add_share(summary: ModuleSummary, share: ModuleSummary) -> None:
    """As if the share's statement had been walked with the summary: assignments in order, a
    global bound again is reassigned. Its objects are not copied: nothing changes a summary."""
    summary.imports.update(share.imports)  # the imports before it, and its own
    summary.functions.update(share.functions)
    summary.classes.update(share.classes)
    for name, value in share.globals.items():
        if name in summary.globals:
            summary.reassigned.add(name)
        else:
            summary.globals[name] = value
    summary.reassigned |= share.reassigned
    summary.star_imports += share.star_imports


# Decorator factories of these packages bind names only (`@dataclass(frozen=True)`, `@torch.no_grad()`).
_PURE_DECORATOR_ROOTS = frozenset({"torch", "functools", "dataclasses", "typing", "abc", "contextlib", "enum",
                                   "typing_extensions", "numpy", "jax"})


def _folded(node: cst.BinaryOperation, imports: dict[str, str]) -> Value:
    """Arithmetic on number literals, as Python computes it; unknown otherwise (and for a long
    chain, `1 + 1 + ...`, which would recurse as deep as it is long)."""
    if _operations(node) > _MAX_FOLDED:
        return V.unknown()
    left, right = literal(node.left, imports), literal(node.right, imports)
    numbers = [v.value for v in (left, right) if v.kind == V.CONST and v.known and type(v.value) in (int, float)]
    if len(numbers) != 2 or (isinstance(node.operator, cst.Power) and abs(numbers[1]) > _MAX_EXPONENT):
        return V.unknown()
    return V.compute(BINOPS[type(node.operator)], *numbers)


# Decorators whose effect the walk models itself rather than running them: huggingface_hub's
# `strict(accept_kwargs=True)` makes the dataclass's `__init__` hand unknown keywords to `__post_init__`
# (variables/user_defined.passes_extra_kwargs).
MODELLED_DECORATORS = frozenset({"huggingface_hub.dataclasses.strict"})


def pure_decorator(decorator: cst.BaseExpression, imports: dict[str, str]) -> bool:
    """A decorator (or decorator factory's call) of a package whose decorators bind names only, or one
    whose effect the walk models itself."""
    target = decorator.func if isinstance(decorator, cst.Call) else decorator
    name = resolve(dotted(target) or "", imports)
    return name.split(".")[0] in _PURE_DECORATOR_ROOTS or name in MODELLED_DECORATORS


def has_effects(stmt: cst.BaseStatement, imports: dict[str, str]) -> bool:
    """A top-level statement whose running at import changes an object (a registry filled)."""
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return any(isinstance(d.decorator, cst.Call) and not pure_decorator(d.decorator, imports)
                   for d in stmt.decorators)
    if isinstance(stmt, cst.If):
        return _sets_flag(stmt)  # `if is_torch_available(): _is_torch_available = True`: which ran is the import's
    if not isinstance(stmt, cst.SimpleStatementLine):
        return False
    for small in stmt.body:
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) \
                and isinstance(small.value.func, cst.Attribute):  # `REGISTRY.update(...)`, `ACT.register(...)`
            return True
        if isinstance(small, cst.Assign) and any(isinstance(t.target, cst.Subscript) for t in small.targets):
            return True
        if isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None \
                and _computed(small.value):
            return True  # a value the summary cannot hold as written: run at import, as Python does
        if isinstance(small, cst.Assign) and isinstance(small.value, cst.Call) and any(
                isinstance(t.target, (cst.Tuple, cst.List)) for t in small.targets):
            return True  # `_available, _version = _is_package_available("accelerate")`: unpacked at import
    return False


def _sets_flag(stmt: cst.If) -> bool:
    """A module-level `if` whose branches bind names (a flag set where a check passes)."""
    branches: list[cst.BaseSuite] = [stmt.body]
    orelse = stmt.orelse
    while orelse is not None:
        branches.append(orelse.body)
        orelse = orelse.orelse if isinstance(orelse, cst.If) else None
    return any(isinstance(small, (cst.Assign, cst.AnnAssign)) and all(
        isinstance(t.target, cst.Name) for t in (small.targets if isinstance(small, cst.Assign) else [small]))
               for branch in branches if isinstance(branch, cst.IndentedBlock)
               for line in branch.body if isinstance(line, cst.SimpleStatementLine) for small in line.body)


def _computed(node: cst.BaseExpression) -> bool:
    """`NORMS = {"rms": lambda d, e: RMSNorm(d, e)}`, `SCALE = 1 / math.sqrt(64)`: a module-level value
    made of lambdas or arithmetic (a lone lambda is summarized as the function it is)."""
    if isinstance(node, cst.BinaryOperation):
        return True
    if isinstance(node, cst.Call) and any(arg.star for arg in node.args):
        return True  # `NAMES = OrderedDict(**{"gpt-sw3": "GPT2Config"}, **NAMES)`: its arguments spread at run time
    if isinstance(node, (cst.Dict, cst.List, cst.Tuple)):
        values = [e.value for e in node.elements if isinstance(e, (cst.DictElement, cst.Element))]
        return any(isinstance(v, cst.Lambda) or _computed(v) for v in values)
    return False
