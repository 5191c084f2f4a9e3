"""BuiltinVariable: Python's builtins (`len`, `range`, `isinstance`, `zip`, ...), computed on
known constants as Dynamo does, guarding what they read."""

from __future__ import annotations

import collections.abc
import numbers
import types
from typing import TYPE_CHECKING, Any

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.bounds import ITEMS
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables import data_files, sets
from vtlint.analyzer.variables.data import DataLoaderVariable, TensorDatasetVariable
from vtlint.analyzer.variables.dicts import dict_of
from vtlint.analyzer.variables.functions import UserFunctionVariable
from vtlint.analyzer.variables.lists import NONEMPTY, check_sort_keys, too_long
from vtlint.analyzer.variables.nn_module import set_child
from vtlint.analyzer.variables.tensor import NDARRAY, SIZE
from vtlint.analyzer.variables.user_defined import UserDefinedObjectVariable

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker

BUILTIN_NAMES = frozenset({
    "len", "range", "print", "int", "float", "bool", "str", "abs", "min", "max", "round", "sum", "isinstance",
    "enumerate", "zip", "reversed", "list", "tuple", "sorted", "getattr", "setattr", "hasattr", "exec", "eval",
    "globals", "vars", "input", "open", "id", "hash", "type", "super", "all", "any", "map", "filter", "iter", "next",
    "dict", "set", "frozenset", "repr", "format", "divmod", "pow", "callable", "issubclass", "object",
    "chr", "ord", "hex", "oct", "bin", "bytes", "complex", "slice",
})
# Builtins whose result on known constants the walk can compute.
PURE_BUILTINS = {"int": int, "float": float, "bool": bool, "str": str, "abs": abs, "min": min, "max": max,
                 "round": round, "len": len}
FAKE_ID = "fake_id"  # attrs flag of `id()` of a container made in the frame (FakeIdVariable)
_SEQUENCES = frozenset({"enumerate", "zip", "reversed", "list", "tuple", "sorted"})
_DYNAMIC_ACCESS = frozenset({"getattr", "setattr", "hasattr", "exec", "eval", "globals", "vars"})


class BuiltinVariable(Value):
    tracks = (V.BUILTIN,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def call_function(self, tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act,
                      node: cst.Call) -> Value:
        name = self.ref or ""
        tensors = any(a.kind == V.TENSOR for a in [*args, *kwargs.values()])
        if tx.eager and name in ("int", "float", "bool") and args and args[0].kind == V.TENSOR:
            return V.datum(name)  # eager `float(t)`: a Python number read from the tensor's data
        if tx.eager and name == "open":
            return data_files.opened(tx, args, kwargs)  # the script reads a data file: its text
        decision = breaks.decide_builtin(name, tx.settings, tensor_args=tensors)
        if name in tx.settings.reorderable_logging_functions and not tx.eager:
            # Dynamo runs it after the graph, when its arguments are tensors, constants or f-strings
            decision = breaks.decide_reordered_logging(name, [a.kind for a in [*args, *kwargs.values()]])
        if name == "id" and len(args) == 1 and not tx.eager and args[0].source is None \
                and args[0].kind in (V.LIST, V.DICT, V.SET):
            # a container made in the frame has no id yet: a FakeIdVariable, only compared with its kind
            return Value(V.CONST, pytype="int", attrs={FAKE_ID: V.const(True)})
        if name == "repr" and args and isinstance(args[0], UserFunctionVariable) and not tx.eager \
                and args[0].closes_over_tensor(tx):
            decision = breaks.decide_closure_repr()
        if decision.action == "graph-break":
            tx.graph_break(act, node, decision, name)
            return V.unknown()
        if name == "len" and args:
            return _len(tx, args[0], act, node)
        if name == "type" and len(args) == 1 and args[0].kind in (V.OBJECT, V.NN_MODULE) and args[0].ref:
            return _type_of(tx, args[0])
        if name == "type" and len(args) == 1 and args[0].kind == V.TENSOR and NDARRAY not in args[0].attrs:
            return Value(V.LIB, ref="torch.Tensor")  # a TensorVariable's python_type
        if name == "range":
            return _range(tx, args, act, node)
        if name == "sorted" and args:
            check_sort_keys(tx, tx.iterate(args[0], act, node), kwargs.get("key"), act, node)
        if name in _SEQUENCES:
            return _sequence(tx, name, args, act, node)
        if name in ("map", "filter") and len(args) >= 2:
            return _map(tx, name, args, act, node)
        if name == "isinstance":
            return _isinstance(tx, args)
        if name == "issubclass":
            return _issubclass(tx, args)
        if name in ("any", "all") and len(args) == 1 and not kwargs:
            return _any_all(tx, name == "any", args[0], act, node)
        if name == "setattr" and tx.eager and len(args) == 3 and args[1].known and isinstance(args[1].value, str) \
                and args[0].kind in (V.NN_MODULE, V.OBJECT):
            if args[0].kind == V.OBJECT:  # an attribute, never one of a dict subclass's items (FrozenDict)
                args[0].attrs[args[1].value] = args[2].with_(source=None)
            else:
                set_child(args[0], args[1].value, args[2])  # `setattr(parent, "c_attn", LoRALinear(child))`
            return V.const(None)
        if name == "dict":
            return dict_of(args, kwargs)
        if name in ("set", "frozenset") and len(args) <= 1 and not kwargs:
            return sets.set_of(tx.iterate(args[0], act, node) if args else [], frozen=name == "frozenset")
        if name in ("getattr", "hasattr") and len(args) >= 2 and args[1].kind == V.CONST and args[1].known \
                and isinstance(args[1].value, str):
            return _named_attribute(tx, name, args, act, node)
        if name in _DYNAMIC_ACCESS:
            tx.notes.append(f"`{name}(...)` at {act.display}:{act.parsed.line(node)}: dynamic attribute access, "
                            "the values it touches are unknown to the static pass")
            return V.unknown()
        if tensors:
            tx.frame.graph_ops += 1
            return Value(V.TENSOR) if name in ("abs", "min", "max", "sum", "pow") else V.unknown()
        for value in args:
            tx.use(value, act, node)
            if value.kind in (V.LIST, V.TUPLE):
                tx.length_check(value, act, node)
        fn = PURE_BUILTINS.get(name)
        if fn is not None and args and all(a.kind == V.CONST and a.known for a in args):
            return V.compute(fn, *[a.value for a in args])
        if name == "sum" and args and args[0].kind in (V.LIST, V.TUPLE) and args[0].items is not None:
            if any(i.kind == V.TENSOR for i in args[0].items):
                return Value(V.TENSOR)
            if all(i.kind == V.CONST and i.known for i in args[0].items):
                return V.compute(sum, [i.value for i in args[0].items])
        if name == "str" and len(args) == 1 and args[0].ref and (
                args[0].kind == V.CLASS or (args[0].kind == V.LIB and args[0].ref == "torch.Tensor")):
            return V.const(f"<class '{args[0].ref}'>")  # `str(model.__class__)`: a registry's key
        if name in ("int", "float", "bool", "str"):
            return Value(V.CONST, pytype=name)  # its value unknown, its type certain
        return Value(V.CONST) if name in PURE_BUILTINS else V.unknown()


_BUILTIN_TYPES: dict[str, type] = {"dict": dict, "list": list, "tuple": tuple, "str": str, "int": int,
                                    "float": float, "bool": bool, "set": set,
                                    "frozenset": frozenset, "slice": slice, "bytes": bytes, "complex": complex}
_PYTYPES: dict[str, type] = {name: kind for kind, name in V.SCALAR_TYPES.items()}
# a class object is a `type`, a function a function: never a dict, a tuple or a number
_CONTAINER_TYPES: dict[str, type] = {V.LIST: list, V.TUPLE: tuple, V.DICT: dict, V.SET: set, V.CLASS: type,
                                     V.FUNC: types.FunctionType}


def _type_of(tx: Walker, value: Value) -> Value:
    """`type(self)`: the object's class. Reached this way first, the class object's VariableTracker has a
    `type(...)` Source, which later reads of `self.__class__` reuse: its `__name__` is then guarded
    as `type(L['self']).__name__`, no value of the user's (measured)."""
    found = tx.project.klass(value.ref or "")
    if found is None:
        return Value(V.CLASS, ref=value.ref)
    summary, cls = found
    tx.class_attr_sources.setdefault((summary.display, cls.qualname, "__class__"), None)
    return Value(V.CLASS, ref=value.ref)


# the abstract base classes a check names (`isinstance(normalized_shape, numbers.Integral)`)
_ABSTRACT_TYPES: dict[str, type] = {
    "numbers.Number": numbers.Number, "numbers.Complex": numbers.Complex, "numbers.Real": numbers.Real,
    "numbers.Integral": numbers.Integral, "collections.abc.Sequence": collections.abc.Sequence,
    "collections.abc.Mapping": collections.abc.Mapping, "collections.abc.Iterable": collections.abc.Iterable,
    "typing.Sequence": collections.abc.Sequence, "typing.Mapping": collections.abc.Mapping,
}


def _python_type(wanted: Value) -> type | None:
    if wanted.kind == V.BUILTIN:
        return _BUILTIN_TYPES.get(wanted.ref or "")
    # an ABC is a library name, or a class the walk read from the standard library's source
    return _ABSTRACT_TYPES.get(wanted.ref or "") if wanted.kind in (V.LIB, V.CLASS) else None


def _builtin_isinstance(value: Value, wanted: list[Value]) -> bool | None:
    """`isinstance(value, dict)` against builtin types and the ABCs of `numbers` and `collections.abc`,
    for a value whose Python type the walk knows (a library function is none of them)."""
    found = [_python_type(w) for w in wanted]
    if not found or None in found:
        return None
    types = tuple(t for t in found if t is not None)
    if value.kind == V.LIB and value.ref and value.ref.startswith("torch.") and value.ref.rpartition(".")[2].islower():
        return False  # `isinstance(activation, str)` of `F.relu`: a function
    if value.kind == V.CONST and value.known:
        return isinstance(value.value, types)
    known = _PYTYPES.get(value.pytype or "") if value.kind == V.CONST else _CONTAINER_TYPES.get(value.kind)
    if value.kind == V.SET and sets.FROZEN in value.attrs:
        known = frozenset
    return issubclass(known, types) if known is not None else None


# torch.Tensor as code names it in `isinstance(x, torch.Tensor)`
TENSOR_TYPES = frozenset({"torch.Tensor", "torch._tensor.Tensor"})
# values whose Python type is never a tensor
_NOT_TENSORS = frozenset({V.CONST, V.LIST, V.TUPLE, V.DICT, V.SET, V.CLASS, V.FUNC, V.NN_MODULE, V.ENUM, V.RANGE})


def _tensor_isinstance(value: Value, wanted: list[Value]) -> bool | None:
    """`isinstance(x, torch.Tensor)`: True for a tensor, False for a value of another known type."""
    if not wanted or any(w.kind != V.LIB or w.ref not in TENSOR_TYPES for w in wanted):
        return None
    if value.kind == V.TENSOR:
        return True
    return False if value.kind in _NOT_TENSORS and (value.kind != V.CONST or value.pytype) else None


def _class_isinstance(tx: Walker, value: Value, wanted: list[Value]) -> bool | None:
    """`isinstance(spec_or_config, SubConfigSpec)` of a class: an instance of its metaclass only, so of
    none of the project's classes that are not metaclasses."""
    if value.kind != V.CLASS or not value.ref or not wanted:
        return None
    for w in wanted:
        found = tx.project.klass(w.ref or "") if w.kind == V.CLASS else None
        if found is None or any(b.rpartition(".")[2] in ("type", "ABCMeta", "EnumMeta", "EnumType")
                                for b in tx.project.external_bases(*found)):
            return None
    return False


def _isinstance(tx: Walker, args: list[Value]) -> Value:
    """`isinstance(m, nn.Linear)` on an object whose class the walk knows: its MRO decides (a constant,
    as Dynamo folds it); so do builtin types of a value whose type is known (`isinstance(value, dict)`);
    otherwise a bool of unknown value."""
    wanted = args[1].items if len(args) == 2 and args[1].kind == V.TUPLE and args[1].items is not None else args[1:]
    if len(args) == 2 and (answer := _builtin_isinstance(args[0], wanted)) is not None:
        return V.const(answer)
    if len(args) == 2 and (answer := _tensor_isinstance(args[0], wanted)) is not None:
        return V.const(answer)
    if len(args) == 2 and (answer := _class_isinstance(tx, args[0], wanted)) is not None:
        return V.const(answer)
    if len(args) != 2 or args[0].kind not in (V.NN_MODULE, V.OBJECT) or not args[0].ref:
        return Value(V.CONST, pytype="bool")
    return _derives(tx, args[0].ref, wanted)


def _issubclass(tx: Walker, args: list[Value]) -> Value:
    """`issubclass(self.config_class, PreTrainedConfig)` of a class the walk knows: its MRO decides."""
    if len(args) != 2 or args[0].kind != V.CLASS or not args[0].ref:
        return Value(V.CONST, pytype="bool")
    return _derives(tx, args[0].ref, args[1].items if args[1].kind == V.TUPLE and args[1].items is not None
                    else args[1:])


# bases the walk does not read that make no object an instance of a class it reads (besides nn.Module and
# object): the helpers of `abc` and `typing` (`class CacheLayerMixin(ABC)` is no `DummyLayer`)
_NEVER_MATCH = frozenset({"abc.ABC", "typing.Generic", "typing.Protocol"})


def _derives(tx: Walker, ref: str, wanted: list[Value]) -> Value:
    """Whether class `ref` derives from one of `wanted`: a constant where the walk reads every class."""
    answers = [tx.objects.is_subclass(ref, w.ref) if w.ref and w.kind in (V.CLASS, V.LIB) else None
               for w in wanted]
    found = tx.objects.resolve_class(ref)
    if None in answers or found is None:
        return Value(V.CONST, pytype="bool")
    if any(answers):
        return V.const(True)
    unread = [b for b in tx.project.external_bases(found[1], found[2])
              if b.rpartition(".")[2] not in ("Module", "object") and b not in _NEVER_MATCH]
    return Value(V.CONST, pytype="bool") if unread else V.const(False)  # a base the walk cannot read may match


def _named_attribute(tx: Walker, name: str, args: list[Value], act: Act, node: cst.CSTNode) -> Value:
    """`getattr(obj, "eps", default)` / `hasattr(obj, "eps")` with a constant name: Dynamo reads the
    attribute as `obj.eps` (same Source, same guard). An attribute the walk does not find is missing
    for an object it built whole, unknown for one it knows by its class only; one its construction
    assigned a value the walk could not compute (`AutoModel.from_config(...)`) is there, unknown."""
    target, attr = args[0], args[1].value
    if target.kind == V.UNKNOWN:
        tx.notes.append(f"`{name}(...)` at {act.display}:{act.parsed.line(node)}: dynamic attribute access on a "
                        "value the static pass does not know")
        return V.unknown()
    tx.use(args[1], act, node)  # the name is a constant Dynamo guards (`L['name'] == 'eps'`)
    found = tx.getattr(target, attr, act, node)
    missing = found.kind == V.UNKNOWN and found.confidence == "low" and not target.opaque \
        and target.kind in (V.OBJECT, V.NN_MODULE, V.NAMESPACE) and attr not in target.attrs
    if name == "hasattr":
        return V.const(False) if missing else V.const(True) if found.kind != V.UNKNOWN else Value(V.CONST, pytype="bool")
    if missing and len(args) > 2:
        return args[2]
    if found.source is not None and not tx.eager:
        return found.with_(read_at=node)  # read here, as `obj.eps` is: its guards are reported at this call
    return found


def _any_all(tx: Walker, wanted: bool, iterable: Value, act: Act, node: cst.CSTNode) -> Value:
    """`any(...)` / `all(...)`: Dynamo inlines its polyfill, a loop that tests each element in turn and
    stops at the first that decides (a constant when each tested one is known)."""
    elements = tx.iterate(iterable, act, node)
    if elements is None:
        return Value(V.CONST, pytype="bool")
    undecided = False
    for element in elements:
        verdict = tx.truth(element, act, node, "if")
        if verdict is None:
            undecided = True
        elif verdict is wanted:
            return V.const(wanted)
    return Value(V.CONST, pytype="bool") if undecided else V.const(not wanted)


def _len(tx: Walker, target: Value, act: Act, node: cst.CSTNode) -> Value:
    if V.TOO_LARGE in target.attrs:
        return Value(V.CONST, pytype="int", confidence="medium", attrs=V.carried(target))
    if target.kind in (V.CONST, V.SET):
        # `len(s)` of a string (or a set) from outside is constant-folded: EQUALS_MATCH on s
        tx.use(target, act, node)
    if target.kind == V.CONST:
        return V.compute(len, target.value) if target.known else Value(V.CONST, pytype="int")
    if target.kind in (V.LIST, V.TUPLE, V.DICT):
        tx.length_check(target, act, node)
    if target.kind in (V.LIST, V.TUPLE, V.DICT, V.NN_MODULE, V.SET) and target.items is not None:
        return V.const(len(target.items))  # a ModuleList's length is static, as its children are
    if tx.eager and target.kind == V.TENSOR and target.items and target.items[0].kind == V.CONST:
        return target.items[0]  # `len(x)` of a tensor the program built: its first size
    if isinstance(target, (TensorDatasetVariable, DataLoaderVariable)) and (count := target.length()) is not None:
        return V.const(count)
    if isinstance(target, UserDefinedObjectVariable):
        found = target.call_dunder(tx, "__len__", [], {}, act, node)  # inlined, as Dynamo does
        if found is not None and found.kind == V.CONST:
            return found
    return Value(V.CONST, pytype="int")


def _map(tx: Walker, name: str, args: list[Value], act: Act, node: cst.Call) -> Value:
    """`map(f, xs)` / `filter(f, xs)` over sequences the walk can unroll: `f` called on each element,
    as Dynamo's MapVariable / FilterVariable do; an iterator consumed by `tuple(...)`, `list(...)`, `for`."""
    seqs = [tx.iterate(a, act, node) for a in args[1:]]
    if any(s is None for s in seqs) or (name == "filter" and len(seqs) != 1):
        return Value(V.LIST)
    out: list[Value] = []
    for group in zip(*seqs):  # type: ignore[call-overload]
        result = tx.call(args[0], list(group), {}, act, node)
        if name == "map":
            out.append(result)
            continue
        keep = result.truth(tx, act, node, "filter") if args[0].kind != V.CONST else group[0].truth(
            tx, act, node, "filter")
        if keep is None:
            return Value(V.LIST)  # which elements pass is not known
        if keep:
            out.append(group[0])
    return Value(V.LIST, items=out)


def _range(tx: Walker, args: list[Value], act: Act, node: cst.CSTNode) -> Value:
    for value in args:
        tx.use(value, act, node)
        if value.kind == V.CONST and not tx.eager:
            # a loop bound Dynamo unrolls: a SymInt here is specialized back to its value (guard_int),
            # so each new value compiles a graph of its own (measured: LAMBDA_GUARD L['n'] == 2)
            tx.frame.specialized.update(V.origins(value))
    if args and all(a.kind == V.CONST and a.known and isinstance(a.value, int) for a in args):
        return Value(V.RANGE, value=range(*[a.value for a in args]))
    start = args[0] if len(args) > 1 else V.const(0)  # range(n): from 0
    attrs = {"start": start} if args else {}
    stop = args[1] if len(args) > 1 else args[0] if args else None
    if stop is not None and SIZE in stop.attrs and len(args) <= 2 and start.known and start.value == 0:
        attrs[NONEMPTY] = V.const(True)  # `range(x.shape[0])`: a tensor's size, so the loop runs
    return Value(V.RANGE, attrs=attrs)


def _sequence(tx: Walker, name: str, args: list[Value], act: Act, node: cst.CSTNode) -> Value:
    seqs = [tx.iterate(a, act, node) for a in args]
    if name != "zip" and args and too_long(args[0]):  # `list(range(10**10))`: noted by `iterate`
        return V.too_large(None, ITEMS, kind=V.LIST)
    if not seqs or any(s is None for s in seqs):
        return Value(V.LIST)
    first: list[Any] = seqs[0] or []
    # `iter()` of an enumerate or zip object is itself, of reversed(list) a list_reverseiterator
    made = {V.ITERATOR: V.const(name if name != "reversed" else "list_reverseiterator")}
    if name == "enumerate":
        return Value(V.LIST, items=[Value(V.TUPLE, items=[V.const(i), v]) for i, v in enumerate(first)], attrs=made)
    if name == "zip":
        return Value(V.LIST, items=[Value(V.TUPLE, items=list(group)) for group in zip(*seqs)],  # type: ignore[arg-type]
                     attrs=made)
    if name == "reversed":
        return Value(V.LIST, items=list(reversed(first)), attrs=made)
    return Value(V.LIST if name != "tuple" else V.TUPLE, items=list(first))
