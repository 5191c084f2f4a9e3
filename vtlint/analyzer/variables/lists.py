"""ListVariable / TupleVariable (elements with their Sources, LENGTH_CHECK when used) and RangeVariable."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, overload

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.bounds import ITEMS, MAX_ITEMS, length
from vtlint.analyzer.builder import VariableBuilder
from vtlint.analyzer.sources import item_source
from vtlint.analyzer.values import Value

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker


# a generator object's own methods (Dynamo's UserDefinedObjectVariable of a GeneratorType from outside)
_GENERATOR_METHODS = frozenset({"send", "throw", "close"})

class BaseListVariable(Value):
    tracks = (V.LIST, V.TUPLE)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        tx.length_check(self, act, node)
        return bool(self.items) if self.items is not None else None

    def element(self, index: int, item: Value) -> Value:
        """The item at `index`, read through the container: `L['xs'][1]`; a module's tuple of literals
        (`Conv2d.stride`) is one constant, its items constants of its own with no Source."""
        if VariableBuilder.is_constant_tuple(self):
            return item.with_(source=None) if item.source is not None else item
        source = item_source(self.source, index)
        return item.with_(source=source) if source and item.source is None else item

    def unpack_var_sequence(self, tx: Walker, act: Act, node: cst.CSTNode) -> list[Value] | None:
        tx.length_check(self, act, node)
        self._realize_whole(tx, act, node)
        if self.items is None:
            return None
        return [self.element(i, item) for i, item in enumerate(self.items)]

    def _realize_whole(self, tx: Walker, act: Act, node: cst.CSTNode) -> None:
        """Reading into a module's tuple of literals realizes it, guarded whole (`== (1, 1)`)."""
        if VariableBuilder.is_constant_tuple(self):
            tx.use(self, act, node)

    def getitem(self, tx: Walker, index: Value, act: Act, node: cst.CSTNode) -> Value:
        tx.length_check(self, act, node)
        self._realize_whole(tx, act, node)
        tx.use(index, act, node)
        if index.kind == V.TENSOR and not tx.eager:
            decision = breaks.decide_tensor_index(self.kind, tx.settings)
            if decision.breaks:
                tx.graph_break(act, node, decision, "index by a tensor")
            return V.unknown()
        if index.kind == V.CONST and isinstance(index.value, int) and self.items is not None \
                and -len(self.items) <= index.value < len(self.items):
            position = index.value % len(self.items)
            return self.element(position, self.items[position])
        if index.kind == V.CONST and isinstance(index.value, int) and self.items is None and self.sample is not None:
            return self.sample  # one element of a sequence of unknown length (a size of `x.shape`)
        if index.kind == V.CONST and isinstance(index.value, int) and self.source:
            return Value(V.UNKNOWN, source=item_source(self.source, index.value), confidence="low")
        return V.unknown()


    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        if V.GENERATOR in self.attrs and name in _GENERATOR_METHODS and self.source is not None and not tx.eager \
                and act is not None and node is not None:
            tx.graph_break(act, node, breaks.decide_generator_method(name), f"generator.{name}")
            return V.unknown()
        if name == "sort":
            return Value(V.LIB, ref="list.sort", bound_self=self)
        return Value(V.LIB, ref=f"list.{name}", bound_self=self) if name in MUTATORS | READERS else V.unknown()

    def _read(self, method: str, args: list[Value]) -> Value:
        """`co_varnames.index(name)`, `dims.count(1)`: over known constants, what Python answers (Dynamo
        folds it); else an int the walk does not know."""
        wanted = args[0] if len(args) == 1 else None
        if wanted is None or not wanted.known or self.items is None or not all(i.known for i in self.items):
            return Value(V.CONST, pytype="int", confidence="medium")
        values = [i.value for i in self.items]
        if method == "count":
            return V.const(values.count(wanted.value))
        return V.const(values.index(wanted.value)) if wanted.value in values else V.unknown()

    def call_method(self, tx: Walker, method: str, args: list[Value], kwargs: dict[str, Value], act: Act,
                    node: cst.Call) -> Value:
        """`history.append(loss.item())` on a list from outside: Dynamo guards its length and replays
        the mutation after the graph, so the next call finds another length."""
        if method in READERS:
            return self._read(method, args)
        if method == "sort":
            check_sort_keys(tx, self.items, kwargs.get("key"), act, node)
            return V.const(None)
        if self.kind != V.LIST:
            return V.unknown()
        tx.length_check(self, act, node)
        if self.source is not None:
            tx.appended(self, act, node)
        if self.items is None:
            return V.const(None) if method != "pop" else V.unknown()
        index = args[0] if args else None
        where = index.value if index is not None and index.kind == V.CONST and isinstance(index.value, int) else None
        added = len(args[0].items) if method == "extend" and args and args[0].items is not None else 1
        if method in GROWERS and (len(self.items) + added > MAX_ITEMS or not tx.allowance.take(added)):
            self.items = None  # `xs.extend(xs)` in a loop: past the bound, a list of unknown length
            V.noted(tx, V.too_large(None, ITEMS, kind=V.LIST), act, node)
        elif method == "append" and args:
            self.items.append(args[0].with_(source=None))
        elif method == "extend" and args and args[0].items is not None:
            self.items.extend([i.with_(source=None) for i in args[0].items])  # made first: `xs.extend(xs)`
        elif method == "pop" and (index is None or where is not None) and self.items \
                and -len(self.items) <= (where if where is not None else -1) < len(self.items):
            return self.items.pop(-1 if where is None else where)
        elif method == "insert" and len(args) == 2 and where is not None:
            self.items.insert(where, args[1].with_(source=None))
        elif method == "clear":
            self.items.clear()
        else:
            self.items = None
        return V.const(None) if method != "pop" else V.unknown()


def check_sort_keys(tx: Walker, items: list[Value] | None, key: Value | None, act: Act, node: cst.Call) -> None:
    """sorted()/list.sort() with a `key`: Dynamo calls it on each element while tracing, and a key that is
    a tensor, not a Python constant, breaks the graph at the sort."""
    if key is None or items is None or tx.eager:
        return
    keys = [tx.call(key, [item], {}, act, node) for item in items]
    if any(k.kind == V.TENSOR for k in keys):
        tx.graph_break(act, node, breaks.decide_sort_keys(), "sort by tensor keys")


NONEMPTY = "nonempty"  # attrs flag of a range of unknown length known to run at least once

# List methods that change the list in place.
MUTATORS = frozenset({"append", "extend", "insert", "pop", "clear", "remove"})
# ... those of them that make it longer, and the ones that only read it.
GROWERS = frozenset({"append", "extend", "insert"})
READERS = frozenset({"index", "count"})


class RangeVariable(Value):
    tracks = (V.RANGE,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return bool(self.value) if self.known else None

    def unpack_var_sequence(self, tx: Walker, act: Act, node: cst.CSTNode) -> Sequence[Value] | None:
        return RangeItems(self.value) if self.known else None

    def first(self) -> Value:
        """Its first element when only the stop is unknown (`range(cfg.n_layer)`: 0)."""
        start = self.attrs.get("start")
        return V.const(start.value) if start is not None and start.known else Value(V.CONST, pytype="int")


def too_long(value: Value) -> bool:
    """A range the walk reads only as far as a loop goes: more than MAX_ITEMS elements."""
    return isinstance(value, RangeVariable) and value.known and length(value.value) > MAX_ITEMS


class RangeItems(Sequence[Value]):
    """A range's elements, each made when it is read: a loop unrolls the first few of `range(10**12)`
    without the other trillion (`len` is capped at what Python's `len` answers)."""

    def __init__(self, numbers: range) -> None:
        self.numbers = numbers

    def __len__(self) -> int:
        return length(self.numbers)

    @overload
    def __getitem__(self, index: int) -> Value: ...

    @overload
    def __getitem__(self, index: slice) -> list[Value]: ...

    def __getitem__(self, index: int | slice) -> Value | list[Value]:
        if isinstance(index, slice):
            return [V.const(i) for i in self.numbers[index]]
        return V.const(self.numbers[index])
