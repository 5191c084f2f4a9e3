"""ConstDictVariable: a dict of constant keys; iterating guards its key order, reading a key its value."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vtlint.analyzer import values as V
from vtlint.analyzer.sources import Source, item_source
from vtlint.analyzer.values import Value

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker

METHODS = frozenset({"items", "keys", "values", "get", "pop", "update", "setdefault"})


class ConstDictVariable(Value):
    tracks = (V.DICT,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        tx.length_check(self, act, node)
        return bool(self.items) if self.items is not None else None

    def unpack_var_sequence(self, tx: Walker, act: Act, node: cst.CSTNode) -> list[Value] | None:
        tx.key_order(self, act, node)
        return [V.const(k) for k in self.keys] if self.keys is not None else None

    def getitem(self, tx: Walker, index: Value, act: Act, node: cst.CSTNode) -> Value:
        tx.use(index, act, node)
        if index.known and self.keys is not None and self.items is not None:
            if index.value in self.keys:
                return _sourced(self.items[self.keys.index(index.value)], item_source(self.source, index.value))
            tx.raises("KeyError")  # `Mapping.get`'s `try: return self[key] except KeyError: return default`
        return V.unknown()

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        return Value(V.LIB, ref=f"dict.{name}", bound_self=self) if name in METHODS else V.unknown()

    def call_method(self, tx: Walker, method: str, args: list[Value], kwargs: dict[str, Value], act: Act,
                    node: cst.Call) -> Value:
        keys, items = self.keys, self.items
        if keys is None or items is None:
            return V.unknown()
        if method == "__getitem__" and args:
            return self.getitem(tx, args[0], act, node)
        if method == "__setitem__" and len(args) == 2 and args[0].known:
            # `super().__setitem__(str(model.__class__), flags)` in a dict subclass's override
            set_item(keys, items, args[0].value, args[1].with_(source=None))
            return V.const(None)
        if method == "__contains__" and args and args[0].known:
            return V.const(args[0].value in keys)
        if method in ("keys", "values", "items"):
            tx.key_order(self, act, node)
        # each value is read by its key, `L['weights']['a']`, whichever way it is reached (the guard
        # tree's ValueManager of each KeyValueManager pair)
        wrapped = [_sourced(i, item_source(self.source, k)) for k, i in zip(keys, items)]
        if method == "keys":
            return Value(V.LIST, items=[V.const(k) for k in keys], attrs=_view("dict_keyiterator"))
        if method == "values":
            return Value(V.LIST, items=wrapped, attrs=_view("dict_valueiterator"))
        if method == "items":
            return Value(V.LIST, items=[Value(V.TUPLE, items=[V.const(k), w]) for k, w in zip(keys, wrapped)],
                         attrs=_view("dict_itemiterator"))
        if method == "get" and args and args[0].known:
            if args[0].value in keys:
                return wrapped[keys.index(args[0].value)]
            return args[1] if len(args) > 1 else V.const(None)
        if method == "update":
            # `values.update(overrides)`: later keys win; one the walk cannot read leaves the dict unknown
            given = args[0] if args else Value(V.DICT, keys=[], items=[])
            if given.kind != V.DICT or given.keys is None or given.items is None:
                self.keys = self.items = None
                return V.const(None)
            for key, item in [*zip(given.keys, given.items, strict=True), *kwargs.items()]:
                set_item(keys, items, key, item.with_(source=None))
            return V.const(None)
        if method == "setdefault" and args and args[0].known:
            # `rope_parameters.setdefault("rope_type", "default")`: the value there, else the default, stored
            if args[0].value in keys:
                return wrapped[keys.index(args[0].value)]
            default = args[1] if len(args) > 1 else V.const(None)
            keys.append(args[0].value)
            items.append(default.with_(source=None))
            return default
        if method == "pop" and args and args[0].known:
            # `kwargs.pop("attn_implementation", None)`: the value, removed; else the default
            if args[0].value in keys:
                index = keys.index(args[0].value)
                del keys[index]
                return items.pop(index).with_(source=None)
            return args[1] if len(args) > 1 else V.unknown()
        return V.unknown()


def set_item(keys: list[Any], items: list[Value], key: Any, value: Value) -> None:
    """`d[key] = value` on a dict kept as parallel keys and items: a key seen before keeps its place."""
    if key in keys:
        items[keys.index(key)] = value
    else:
        keys.append(key)
        items.append(value)


def _sourced(item: Value, source: Source | None) -> Value:
    """A value read out of a dict from outside the frame: VariableBuilder wraps it under the dict's
    item Source (`G['FUNCS']._global_mapping['sdpa']`), wherever the value came from; an object or
    module keeps the Source of its first access (one VariableTracker per object)."""
    if source is None or (item.source is not None and item.kind in (V.OBJECT, V.NN_MODULE)):
        return item
    return item.with_(source=source)


def dict_of(args: list[Value], kwargs: dict[str, Value]) -> Value:
    """`dict()`, `dict(lr=0.1)`, `dict(base, lr=0.1)`: a dict of known keys when the walk knows them."""
    base = args[0] if args else Value(V.DICT, keys=[], items=[])
    if base.kind in (V.LIST, V.TUPLE) and len(args) == 1:
        base = _from_pairs(base)  # `OrderedDict([("albert", "AlbertConfig"), ...])`
    if base.kind != V.DICT or base.keys is None or base.items is None or len(args) > 1:
        return V.unknown()
    keys, items = list(base.keys), list(base.items)
    for key, value in kwargs.items():
        set_item(keys, items, key, value)
    return Value(V.DICT, keys=keys, items=items)


def _from_pairs(pairs: Value) -> Value:
    """A dict built from a sequence of (key, value) pairs with known keys; unknown otherwise."""
    keys: list[Any] = []
    items: list[Value] = []
    for pair in pairs.items or ():
        if pair.kind not in (V.LIST, V.TUPLE) or pair.items is None or len(pair.items) != 2 \
                or not pair.items[0].known:
            return V.unknown()
        set_item(keys, items, pair.items[0].value, pair.items[1])
    return Value(V.DICT, keys=keys, items=items) if pairs.items is not None else V.unknown()


def _view(iterator: str) -> dict[str, Value]:
    """A dict view's elements, as a list, remembering the iterator `iter()` makes of the view."""
    return {V.ITERATOR: V.const(iterator)}
