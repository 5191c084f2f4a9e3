"""SetVariable: a set or frozenset the code builds (`{"a", "b"}`, `set(config.keys())`), its elements
kept in the order added. Over known constants, membership, equality, `len`, iteration and the set
algebra give what Python gives (and what Dynamo folds); a set holding a value the walk does not know
(`items` None) answers nothing, and a method the walk does not model leaves it unknown."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.bounds import MAX_ITEMS
from vtlint.analyzer.values import Value

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker

# methods that change the set in place, and those that make a value of it
MUTATORS = frozenset({"add", "discard", "remove", "update", "clear", "pop", "difference_update",
                      "intersection_update", "symmetric_difference_update"})
_READERS: dict[str, Callable[..., Any]] = {
    "union": set.union, "intersection": set.intersection, "difference": set.difference,
    "symmetric_difference": set.symmetric_difference, "issubset": set.issubset, "issuperset": set.issuperset,
    "isdisjoint": set.isdisjoint, "copy": set.copy}
# `a | b`, `a & b`, `a - b`, `a ^ b`; `a <= b` and the other orders compare as subsets
ALGEBRA = frozenset({operator.or_, operator.and_, operator.sub, operator.xor})
FROZEN = "frozen"  # attrs flag of a frozenset
HOLDS_TENSOR = "holds_tensor"  # attrs flag of a set with a tensor among its (unknown) elements


class SetVariable(Value):
    tracks = (V.SET,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return bool(self.items) if self.items is not None else None

    def unpack_var_sequence(self, tx: Walker, act: Act, node: cst.CSTNode) -> list[Value] | None:
        return list(self.items) if self.items is not None else None

    def wrap_refused(self) -> breaks.Decision | None:
        """A set of tensors from outside: Dynamo would have to order it, and a tensor's hash is its id."""
        return breaks.decide_set_of_tensors() if self.source is not None and HOLDS_TENSOR in self.attrs else None

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        return Value(V.LIB, ref=f"set.{name}", bound_self=self) if name in MUTATORS | _READERS.keys() \
            else V.unknown()

    def call_method(self, tx: Walker, method: str, args: list[Value], kwargs: dict[str, Value], act: Act,
                    node: cst.Call) -> Value:
        if method in _READERS:
            others = [elements(tx, a, act, node) for a in args]
            mine = python_set(self)
            frozen = FROZEN in self.attrs
            if mine is None or any(o is None for o in others):
                return Value(V.CONST, pytype="bool", confidence="medium") if method.startswith("is") \
                    else set_of(None, frozen)
            result = _READERS[method](mine, *others)
            return V.const(result) if isinstance(result, bool) else set_of(_ordered(self.items or [], result), frozen)
        if method in MUTATORS:
            self._mutate(tx, method, args, act, node)
        return V.const(None) if method != "pop" else V.unknown()

    def _mutate(self, tx: Walker, method: str, args: list[Value], act: Act, node: cst.Call) -> None:
        mine = python_set(self)
        if method == "clear":
            self.items = []
            return
        if method in ("add", "discard", "remove"):
            others: list[set[Any] | None] = [{args[0].value}] if args and _hashable(args[0]) else [None]
        else:
            others = [elements(tx, a, act, node) for a in args]
        if mine is None or method == "pop" or any(o is None for o in others):
            self.items = None  # an element the walk does not know (or a pop's arbitrary one)
            return
        apply = {"add": set.update, "update": set.update, "discard": set.difference_update,
                 "remove": set.difference_update}.get(method) or getattr(set, method)
        apply(mine, *others)
        self.items = None if len(mine) > MAX_ITEMS else _ordered(self.items or [], mine)


def set_of(members: Sequence[Value] | None, frozen: bool = False) -> Value:
    """A SetVariable of these elements, each once; of unknown elements when one is not a known constant."""
    attrs = {FROZEN: V.const(True)} if frozen else {}
    if members is not None and any(m.kind == V.TENSOR for m in members):
        attrs[HOLDS_TENSOR] = V.const(True)
    if members is None or not all(_hashable(m) for m in members) or len(members) > MAX_ITEMS:
        return Value(V.SET, attrs=attrs)
    unique: dict[Any, Value] = {}
    for member in members:
        unique.setdefault(member.value, member.with_(source=None))
    return Value(V.SET, items=list(unique.values()), attrs=attrs)


def shown_set(value: Value) -> str | None:
    """`{'gelu', 'relu'}` / `frozenset({'a'})`: the set as a guard prints it, its elements sorted (the
    order Python iterates strings in changes from run to run); None when an element is unknown."""
    if value.items is None:
        return None
    inner = ", ".join(sorted(repr(i.value) for i in value.items))
    if FROZEN in value.attrs:
        return f"frozenset({{{inner}}})" if inner else "frozenset()"
    return f"{{{inner}}}" if inner else "set()"


def python_set(value: Value) -> set[Any] | None:
    """The set's elements as Python values, when all are known."""
    return {i.value for i in value.items} if value.kind == V.SET and value.items is not None else None


def elements(tx: Walker, value: Value, act: Act, node: cst.CSTNode) -> set[Any] | None:
    """The known elements of an iterable argument (`s.union(["a"])`, `set(d.keys())`)."""
    if value.kind == V.SET:
        return python_set(value)
    members = tx.iterate(value, act, node)
    if members is None or not all(_hashable(m) for m in members):
        return None
    return {m.value for m in members}


def combine(op: Any, left: Value, right: Value) -> Value | None:
    """`a | b`, `a & b`, `a - b`, `a ^ b` of two sets: a set, whose elements are known when both's are;
    None when the operands are not two sets."""
    if left.kind != V.SET or right.kind != V.SET or op not in ALGEBRA:
        return None
    mine, theirs = python_set(left), python_set(right)
    frozen = FROZEN in left.attrs  # `frozenset | set` is a frozenset
    if mine is None or theirs is None:
        return set_of(None, frozen)
    return set_of(_ordered([*(left.items or []), *(right.items or [])], op(mine, theirs)), frozen)


def compared(op: Any, left: Value, right: Value) -> Value | None:
    """`a == b`, `a <= b` (a subset) of two sets: a bool, known when both sets' elements are; None when
    the operands are not two sets."""
    if left.kind != V.SET or right.kind != V.SET:
        return None
    mine, theirs = python_set(left), python_set(right)
    if mine is None or theirs is None or op is None:
        return Value(V.CONST, pytype="bool", confidence="medium")
    return V.const(op(mine, theirs))


def _hashable(value: Value) -> bool:
    if value.kind != V.CONST or not value.known:
        return False
    try:
        hash(value.value)
    except TypeError:
        return False
    return True


def _ordered(seen: list[Value], wanted: set[Any]) -> list[Value]:
    """The elements of `wanted`, in the order first seen (the rest after)."""
    kept = {i.value: i for i in seen if i.value in wanted}
    return [*kept.values(), *[V.const(v) for v in wanted if v not in kept]]
