"""What the walk cannot type: an honest unknown. It may still be a library object of a known
type (`logger`, `sched`), whose methods trace_rules decides, or answer to a method only a
tensor has, which makes it a TensorVariable."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.sources import attr_source
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables.library import call_library
from vtlint.config import DynamoSettings

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker

# Methods lists, dicts and strings share with torch.Tensor: they say nothing about the receiver.
_SHARED_METHODS = frozenset({
    "index", "count", "copy", "sort", "append", "extend", "pop", "get", "items", "keys", "values", "update",
    "split", "format", "join", "replace", "strip", "startswith", "endswith", "lower", "upper", "clear",
    "insert", "remove", "reverse", "add", "sub", "mul", "div", "real", "imag", "conjugate", "is_integer",
    "__call__", "forward", "to_bytes", "bit_length", "hex", "fromhex", "as_integer_ratio",
})


def is_tensor_only_attribute(name: str, settings: DynamoSettings) -> bool:
    if name in _SHARED_METHODS or name.startswith("_"):
        return False
    return breaks.decide_tensor_method(name, settings).action != "unknown"


class UnknownVariable(Value):
    tracks = (V.UNKNOWN,)

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        if self.ref and self.pytype:
            # a method of a library object (`logger.info`, `sched.step`): decided by its type's qualified name
            return Value(V.UNKNOWN, source=attr_source(self.source, name), ref=f"{self.pytype}.{name}",
                         bound_self=self, confidence="low")
        if (self.ref or "").startswith("numpy."):
            return V.unknown()  # a numpy array's method (`np.random.rand(1).item()`): not a tensor's
        if is_tensor_only_attribute(name, tx.settings):
            # only a tensor answers to this method: Dynamo holds a TensorVariable here
            return Value(V.LIB, ref=f"Tensor.{name}", bound_self=Value(V.TENSOR, source=self.source))
        return V.unknown()

    def call_function(self, tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act,
                      node: cst.Call) -> Value:
        if self.ref and self.bound_self is not None:
            return call_library(tx, self, args, kwargs, act, node)
        return V.unknown()
