"""UserFunctionVariable (and its bound-method / nested-function forms): called, it is inlined."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.traverse import visit
from vtlint.analyzer.values import Value

if TYPE_CHECKING:
    from vtlint.analyzer.walk import Act, Walker


class UserFunctionVariable(Value):
    tracks = (V.FUNC,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        """`func.__code__`: its code object, a constant whose `co_varnames`, `co_argcount` and `co_name`
        Dynamo folds (`if name in func.__code__.co_varnames` in a decorator's wrapper decides)."""
        found = tx.function_node(self) if name == "__code__" and self.ref else None
        if found is None:
            return super().var_getattr(tx, name, act, node)
        fn, qualname = found[1], found[4]
        return Value(V.CONST, pytype="code", attrs=code_attributes(fn, qualname))

    def call_function(self, tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act,
                      node: cst.Call) -> Value:
        return tx.call_user(self, args, kwargs, act, node) if self.ref else V.unknown()

    def closes_over_tensor(self, tx: Walker) -> bool:
        """A function made in the frame whose cells hold a tensor: Dynamo cannot turn its closure into Python
        constants (ClosureConversionError) to rebuild the function outside the graph."""
        from vtlint.analyzer.walk import Functions  # the walk imports this module

        made = Functions.of(tx).closure(self)
        return made is not None and any(cell.kind == V.TENSOR for _, cell in made[1])


# torch.autograd.Function as the project's classes name it
AUTOGRAD_FUNCTION_BASES = frozenset({"torch.autograd.Function", "torch.autograd.function.Function", "Function"})


class AutogradFunctionVariable(Value):
    """`MyFn.apply(x)`: Dynamo traces `MyFn.forward(ctx, x)` into one autograd_function_apply node
    (the forward is inlined, its reads guarded); eager code just runs it."""

    tracks = (V.AUTOGRAD_APPLY,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def call_function(self, tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act,
                      node: cst.Call) -> Value:
        if tx.eager or not self.ref:
            return Value(V.TENSOR)
        ctx = V.unknown()  # the FunctionCtx: save_for_backward and the like
        forward = Value(V.FUNC, ref=f"{self.ref}.forward")
        traced_backward = tx.grad_enabled is not False and any(_may_require_grad(a) for a in args)
        # (the refusals only where an input is known to need grad: an intermediate's flag is not known)
        refused = breaks.decide_autograd_apply(self._overrides(tx), _repeats_tensor(args)) \
            if tx.grad_enabled is not False and any(_needs_grad(a) for a in args) else None
        if refused is not None:
            tx.graph_break(act, node, refused, f"{self.ref}.apply")
            tx.compile_callee(forward, [ctx, *args], act)  # apply runs eagerly and calls forward: a frame
            return Value(V.TENSOR)
        result = tx.call_user(forward, [ctx, *args], kwargs, act, node)
        if traced_backward:
            # an input that needs grad: Dynamo traces `backward` too, with one grad per output
            outputs = len(result.items) if result.kind == V.TUPLE and result.items is not None else 1
            tx.call_user(Value(V.FUNC, ref=f"{self.ref}.backward"), [ctx, *[Value(V.TENSOR)] * outputs], {},
                         act, node)
        tx.frame.graph_ops += 1
        return result if result.kind in (V.TENSOR, V.TUPLE, V.LIST) else Value(V.TENSOR)


    def _overrides(self, tx: Walker) -> set[str]:
        """The methods of torch.autograd.Function the class (or a project base) defines again."""
        found = tx.project.klass(self.ref or "")
        if found is None:
            return set()
        return {name for _, klass in tx.project.mro(*found) for name in ("vjp", "jvp")
                if name in klass.methods or name in klass.class_attrs}


def _repeats_tensor(args: list[Value]) -> bool:
    """The same tensor passed twice (`Fn.apply(y, y)`): one value, or one Source."""
    tensors = [a for a in args if a.kind == V.TENSOR]
    return any(a is b or (a.source is not None and a.source == b.source)
               for i, a in enumerate(tensors) for b in tensors[i + 1:])


def _needs_grad(value: Value) -> bool:
    flag = value.attrs.get("requires_grad")
    return value.kind == V.TENSOR and flag is not None and flag.known and bool(flag.value)


def _may_require_grad(value: Value) -> bool:
    """A tensor that needs grad, or may: one computed in the frame (from parameters, most likely); a
    tensor passed in from outside needs grad only when the walk knows it does (data mostly does not)."""
    flag = value.attrs.get("requires_grad")
    if value.kind != V.TENSOR:
        return False
    if flag is not None and flag.known:
        return bool(flag.value)
    return value.source is None


def code_attributes(fn: cst.FunctionDef | cst.Lambda, qualname: str) -> dict[str, Value]:
    """A function's code object as the walk reads it: its argument counts, name and `co_varnames` (the
    arguments in CPython's order, then the locals the body binds, in the order they appear)."""
    params = fn.params
    positional = [p.name.value for p in (*params.posonly_params, *params.params)]
    names = [*positional, *(p.name.value for p in params.kwonly_params)]
    names += [star.name.value for star in (params.star_arg, params.star_kwarg) if isinstance(star, cst.Param)]
    if isinstance(fn, cst.FunctionDef):
        binder = _Bound()
        visit(fn.body, binder)
        names += [n for n in binder.names if n not in names and n not in binder.declared]
    return {"co_varnames": Value(V.TUPLE, items=[V.const(n) for n in names]),
            "co_argcount": V.const(len(positional)), "co_kwonlyargcount": V.const(len(params.kwonly_params)),
            "co_posonlyargcount": V.const(len(params.posonly_params)),
            "co_name": V.const(qualname.rpartition(".")[2] if isinstance(fn, cst.FunctionDef) else "<lambda>")}


class _Bound:
    """The names a function body binds, in order (nested functions and classes bind only their name)."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.declared: set[str] = set()  # `global` / `nonlocal`: not locals

    def _bind(self, target: cst.CSTNode) -> None:
        if isinstance(target, cst.Name):
            self.names.append(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind(element.value)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._bind(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._bind(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target)

    def visit_Global(self, node: cst.Global) -> None:
        self.declared.update(n.name.value for n in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.declared.update(n.name.value for n in node.names)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.names.append(node.name.value)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.names.append(node.name.value)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_ListComp(self, node: cst.ListComp) -> bool:
        return False  # a comprehension's variables are its own code object's (3.11)

    def visit_SetComp(self, node: cst.SetComp) -> bool:
        return False

    def visit_DictComp(self, node: cst.DictComp) -> bool:
        return False

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> bool:
        return False

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            if alias.asname is None:
                head = alias.name
                while isinstance(head, cst.Attribute):
                    head = head.value
                self._bind(head)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if not isinstance(node.names, cst.ImportStar):
            for alias in node.names:
                if alias.asname is None:
                    self._bind(alias.name)
