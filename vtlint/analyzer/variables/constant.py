"""ConstantVariable (a Python scalar, guarded by value when used) and EnumVariable (a member, ID_MATCH)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker


class ConstantVariable(Value):
    tracks = (V.CONST,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        tx.use(self, act, node)  # branching on it specializes: EQUALS_MATCH / TRUE_MATCH / NONE_MATCH
        return bool(self.value) if self.known else None


class EnumVariable(Value):
    tracks = (V.ENUM,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        return V.unknown("medium") if name in ("value", "name") else V.unknown()
