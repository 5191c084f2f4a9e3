"""ConstantVariable (a Python scalar, guarded by value when used) and EnumVariable (a member, ID_MATCH)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import values as V
from vtlint.analyzer.sources import attr_source
from vtlint.analyzer.values import Value
from vtlint.trace import Action

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker


# str methods without side effects: on a known string, computed as Dynamo constant-folds them
STR_METHODS = frozenset({"split", "rsplit", "strip", "lstrip", "rstrip", "lower", "upper", "startswith", "endswith",
                         "replace", "join", "title", "capitalize", "count", "find", "partition", "rpartition",
                         "splitlines", "isdigit", "isalpha", "zfill", "removeprefix", "removesuffix"})
# constants the walk knows some attributes of
_WITH_ATTRIBUTES = frozenset({"torch.device", "code"})


class ConstantVariable(Value):
    tracks = (V.CONST,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        tx.use(self, act, node)  # branching on it specializes: EQUALS_MATCH / TRUE_MATCH / NONE_MATCH
        return bool(self.value) if self.known else None

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        if self.known and isinstance(self.value, str) and name in STR_METHODS:
            return Value(V.LIB, ref=f"str.{name}", bound_self=self)
        if self.pytype in _WITH_ATTRIBUTES and name in self.attrs:
            return self.attrs[name]  # `x.device.type`, `func.__code__.co_varnames`
        return super().var_getattr(tx, name, act, node)


class EnumVariable(Value):
    tracks = (V.ENUM,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        """`Animal.COW.value`: enum's `property.__get__`, which Dynamo inlines, reads the member's
        `_value_` (`_name_`), a constant guarded as `G['Animal'].COW._value_ == 'moo'`."""
        if name not in ("value", "name"):
            return V.unknown()
        member = str(self.value).rpartition(".")[2]
        found = tx.project.klass(self.ref or "")
        literal = found[1].class_attrs.get(member) if found is not None else None
        if act is not None and node is not None and not tx.eager:
            tx.emit(Action.INLINE, act, node, callee="enum.property.__get__", variable_tracker=V.FUNC,
                    detail={"qualname": "property.__get__"})
        source = attr_source(self.source, f"_{name}_")
        if name == "name":
            return V.const(member, source=source)
        if literal is not None and literal.kind == V.CONST and literal.known:
            return literal.with_(source=source)
        return V.unknown("medium")
