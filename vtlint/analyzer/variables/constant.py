"""ConstantVariable (a Python scalar, guarded by value when used) and EnumVariable (a member, ID_MATCH)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker


# str methods without side effects: on a known string, computed as Dynamo constant-folds them
STR_METHODS = frozenset({"split", "rsplit", "strip", "lstrip", "rstrip", "lower", "upper", "startswith", "endswith",
                         "replace", "join", "title", "capitalize", "count", "find", "partition", "rpartition",
                         "splitlines", "isdigit", "isalpha", "zfill", "removeprefix", "removesuffix"})


class ConstantVariable(Value):
    tracks = (V.CONST,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        tx.use(self, act, node)  # branching on it specializes: EQUALS_MATCH / TRUE_MATCH / NONE_MATCH
        return bool(self.value) if self.known else None

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        if self.known and isinstance(self.value, str) and name in STR_METHODS:
            return Value(V.LIB, ref=f"str.{name}", bound_self=self)
        return super().var_getattr(tx, name, act, node)


class EnumVariable(Value):
    tracks = (V.ENUM,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        return V.unknown("medium") if name in ("value", "name") else V.unknown()
