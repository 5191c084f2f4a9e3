"""ListVariable / TupleVariable (elements with their Sources, LENGTH_CHECK when used) and RangeVariable."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import values as V
from vtlint.analyzer.sources import item_source
from vtlint.analyzer.values import Value

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker


class BaseListVariable(Value):
    tracks = (V.LIST, V.TUPLE)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        tx.length_check(self, act, node)
        return bool(self.items) if self.items is not None else None

    def element(self, index: int, item: Value) -> Value:
        """The item at `index`, read through the container: `L['xs'][1]`."""
        source = item_source(self.source, index)
        return item.with_(source=source) if source and item.source is None else item

    def unpack_var_sequence(self, tx: Walker, act: Act, node: cst.CSTNode) -> list[Value] | None:
        tx.length_check(self, act, node)
        if self.items is None:
            return None
        return [self.element(i, item) for i, item in enumerate(self.items)]

    def getitem(self, tx: Walker, index: Value, act: Act, node: cst.CSTNode) -> Value:
        tx.length_check(self, act, node)
        tx.use(index, act, node)
        if index.kind == V.CONST and isinstance(index.value, int) and self.items is not None \
                and -len(self.items) <= index.value < len(self.items):
            position = index.value % len(self.items)
            return self.element(position, self.items[position])
        if index.kind == V.CONST and isinstance(index.value, int) and self.source:
            return Value(V.UNKNOWN, source=item_source(self.source, index.value), confidence="low")
        return V.unknown()


class RangeVariable(Value):
    tracks = (V.RANGE,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return bool(self.value) if self.known else None

    def unpack_var_sequence(self, tx: Walker, act: Act, node: cst.CSTNode) -> list[Value] | None:
        return [V.const(i) for i in self.value] if self.known else None

    def first(self) -> Value:
        """Its first element when only the stop is unknown (`range(cfg.n_layer)`: 0)."""
        start = self.attrs.get("start")
        return V.const(start.value) if start is not None and start.known else Value(V.CONST, pytype="int")
