"""TensorVariable: a graph value. Ops on it are graph nodes; data-dependent Python on it breaks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker

# Tensor attributes that are Python values at trace time, answered from the example value
# (sizes are SymInts or ints): a constant of unknown value to the walk, never a break.
_SCALAR_META = {"ndim": "int", "is_cuda": "bool", "is_cpu": "bool", "is_meta": "bool", "is_nested": "bool",
                "is_sparse": "bool", "is_quantized": "bool", "is_mkldnn": "bool", "is_leaf": "bool",
                "requires_grad": "bool"}
_META = frozenset({"shape", "dtype", "device", "layout", *_SCALAR_META})
_TENSOR_ATTRS = frozenset({"T", "mT", "data", "grad", "real", "imag"})


class TensorVariable(Value):
    tracks = (V.TENSOR,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        decision = breaks.decide_branch(construct, tx.settings)
        if decision.action == "graph-break":
            tx.graph_break(act, node, decision, f"{construct} on a tensor")
        return None

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        if name in _SCALAR_META:
            return Value(V.CONST, pytype=_SCALAR_META[name], confidence="medium")
        if name in _META:
            return Value(V.UNKNOWN)
        if name in _TENSOR_ATTRS:
            return Value(V.TENSOR)
        return Value(V.LIB, ref=f"Tensor.{name}", bound_self=self)

    def getitem(self, tx: Walker, index: Value, act: Act, node: cst.CSTNode) -> Value:
        tx.use(index, act, node)
        tx.frame.graph_ops += 1
        if index.kind == V.TENSOR and index.pytype == "bool":
            decision = breaks.decide_boolean_mask(tx.settings)
            if decision.action == "graph-break":
                tx.graph_break(act, node, decision, "boolean mask")
        return Value(V.TENSOR)

