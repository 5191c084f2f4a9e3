"""UserFunctionVariable (and its bound-method / nested-function forms): called, it is inlined."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker


class UserFunctionVariable(Value):
    tracks = (V.FUNC,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def call_function(self, tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act,
                      node: cst.Call) -> Value:
        return tx.call_user(self, args, kwargs, act, node) if self.ref else V.unknown()


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
        result = tx.call_user(Value(V.FUNC, ref=f"{self.ref}.forward"), [ctx, *args], kwargs, act, node)
        if tx.grad_enabled is not False and any(_may_require_grad(a) for a in args):
            # an input that needs grad: Dynamo traces `backward` too, with one grad per output
            outputs = len(result.items) if result.kind == V.TUPLE and result.items is not None else 1
            tx.call_user(Value(V.FUNC, ref=f"{self.ref}.backward"), [ctx, *[Value(V.TENSOR)] * outputs], {},
                         act, node)
        tx.frame.graph_ops += 1
        return result if result.kind in (V.TENSOR, V.TUPLE, V.LIST) else Value(V.TENSOR)


def _may_require_grad(value: Value) -> bool:
    """A tensor that needs grad, or may: one computed in the frame (from parameters, most likely); a
    tensor passed in from outside needs grad only when the walk knows it does (data mostly does not)."""
    flag = value.attrs.get("requires_grad")
    if value.kind != V.TENSOR:
        return False
    if flag is not None and flag.known:
        return bool(flag.value)
    return value.source is None
