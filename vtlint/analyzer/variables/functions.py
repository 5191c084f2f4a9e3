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
