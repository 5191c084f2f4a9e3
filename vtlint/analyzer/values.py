"""Abstract values: the static counterpart of Dynamo's VariableTracker family.

A `Value` is what the symbolic walk holds where Dynamo holds a VariableTracker:
its kind (Tensor, Constant, List, ...), its Source when it came from outside the
graph (`L['n']`, `G['cfg'].scale`) and, for constants, the Python value when the
static pass can know it. `Value(kind, ...)` is an instance of that kind's class in
`vtlint.analyzer.variables` (ConstantVariable, TensorVariable, NNModuleVariable, ...),
which carries the kind's behaviour: attribute access, calls, truthiness, iteration,
indexing. The data stays plain (picklable) so module summaries can be cached and
shipped between processes."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from vtlint.analyzer import bounds
from vtlint.analyzer.sources import Source

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.breaks import Decision
    from vtlint.analyzer.walk import Act, Walker


class Missing:
    """The value of a constant the static pass cannot know."""

    def __repr__(self) -> str:
        return "<unknown>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Missing)

    def __hash__(self) -> int:
        return 0


MISSING = Missing()

# Value kinds, named after the VariableTracker each one stands for.
TENSOR = "TensorVariable"
CONST = "ConstantVariable"
LIST = "ListVariable"
TUPLE = "TupleVariable"
DICT = "ConstDictVariable"
FUNC = "UserFunctionVariable"  # a function of the project (or an installed package)
CLASS = "UserDefinedClassVariable"
OBJECT = "UserDefinedObjectVariable"
NN_MODULE = "NNModuleVariable"
ENUM = "EnumVariable"
LIB = "LibraryValue"  # a dotted name outside the project: torch.sin, time.time, a module
BUILTIN = "BuiltinVariable"  # a Python builtin: len, range, isinstance, ...
PARSER = "ArgumentParserVariable"  # an argparse.ArgumentParser of the calling script
NAMESPACE = "NamespaceVariable"  # what its parse_args() returns
SET = "SetVariable"  # a set or frozenset the code builds
FILE = "FileVariable"  # a data file the calling script opened for reading
DATASET = "TensorDatasetVariable"  # torch.utils.data.TensorDataset of the calling script
LOADER = "DataLoaderVariable"  # a DataLoader over it
RANGE = "RangeVariable"
# attrs: the type of the iterator `iter()` makes of a value, where its kind does not tell it (a dict view, zip)
ITERATOR = "iterator"
AUTOGRAD_APPLY = "AutogradFunctionVariable"  # `MyFn.apply` of a torch.autograd.Function subclass (ref: the class)
CALL = "CallResult"  # summary-only: `ref(*items, **attrs)` written at module level (items None: a spread)
NAME = "NameRef"  # summary-only: another global's name
UNKNOWN = "Unknown"

SCALAR_TYPES = {bool: "bool", int: "int", float: "float", str: "str", type(None): "NoneType"}
UNINITIALIZED = "uninitialized"  # attrs flag of an nn.Module whose `__init__` ran no other `__init__`
GENERATOR = "generator"  # attrs flag of what a generator function returned, run eagerly: its yields, in order
FRAME_CLASS = "frame_class"  # attrs flag of a class a traced frame defines (and of its instances): its name
PARTS = "parts"  # attrs of a list/tuple of unknown length: the elements written out in its display


@dataclass
class Value:
    kind: str
    source: Source | None = None  # where Dynamo reads it from outside the frame
    value: Any = MISSING  # the Python constant, when known
    pytype: str | None = None  # int | float | bool | str | NoneType, when known
    items: list[Value] | None = None  # list/tuple elements, dict values
    keys: list[Any] | None = None  # dict keys (constants)
    ref: str | None = None  # "module:Qual.name" for project code, dotted name otherwise
    attrs: dict[str, Value] = field(default_factory=dict)  # instance attributes
    confidence: str = "high"
    origin: tuple[str, int] | None = None  # (display path, line) where a literal was written
    bound_self: Value | None = None  # a method bound to its instance
    owner: str | None = None  # an instance attribute: its object's class (who may assign it)
    # the expression that read it from outside (`k`, `opts.gain`): where its guard is reported
    read_at: Any = field(default=None, compare=False, repr=False)
    # a number computed in the frame (`-lr`): the Sources it was computed from
    origins: tuple[Source, ...] = field(default=(), compare=False, repr=False)
    # an instance known by its class only (typed by an annotation): its attribute values are unknown
    opaque: bool = False
    # an object built in the frame from a class read from outside: its class attributes are read
    # through the class (`G['MAPPING']['full'].is_sliding`), as Dynamo's `cls_source`
    cls_source: Source | None = field(default=None, compare=False, repr=False)
    # one element of a sequence of unknown length (`[Block(cfg) for _ in range(cfg.n_layer)]`)
    sample: Value | None = field(default=None, compare=False, repr=False)

    def __new__(cls, kind: str | None = None, *args: Any, **kwargs: Any) -> Value:  # noqa: PYI034 - a subclass
        """`Value(CONST, ...)` builds a ConstantVariable: the class registered for its kind."""
        kind = kind if kind is not None else kwargs.get("kind")
        return object.__new__(TRACKERS.get(kind, cls) if kind is not None else cls)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for kind in cls.__dict__.get("tracks", ()):
            TRACKERS[kind] = cls

    def with_(self, **changes: Any) -> Value:
        assert changes.get("kind", self.kind) == self.kind, "a value's kind is its class"
        assert _FIELDS.issuperset(changes), f"not fields of a Value: {set(changes) - _FIELDS}"
        # `dataclasses.replace` without its per-field __init__ (the walk's hottest copy; no
        # field has a __post_init__ or an init=False to honour)
        made = object.__new__(type(self))
        made.__dict__.update(self.__dict__)
        made.__dict__.update(changes)
        return made

    # behaviour: what Dynamo's VariableTracker methods do; each kind's class overrides these.
    # `tx` is the walk (Dynamo's InstructionTranslator); `act` and `node` place guards and breaks.
    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        """`if value:` — True/False when known, None when the walk cannot tell."""
        return None

    def wrap_refused(self) -> Decision | None:
        """The break VariableBuilder makes of this value from outside the frame when it is first read."""
        return None

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        return unknown()

    def getitem(self, tx: Walker, index: Value, act: Act, node: cst.CSTNode) -> Value:
        return unknown()

    def unpack_var_sequence(self, tx: Walker, act: Act, node: cst.CSTNode) -> list[Value] | None:
        """The elements a `for` unrolls over, each with its Source; None when unknown."""
        return None

    def call_function(self, tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act,
                      node: cst.Call) -> Value:
        return unknown()

    def call_method(self, tx: Walker, name: str, args: list[Value], kwargs: dict[str, Value], act: Act,
                    node: cst.Call) -> Value | None:
        """`value.name(...)` where this kind models the method itself (a dict's `items`, a ModuleList's
        `append`, an ArgumentParser's `add_argument`); None: the call goes to trace_rules."""
        return None

    @property
    def known(self) -> bool:
        return not isinstance(self.value, Missing)

    @property
    def is_scalar(self) -> bool:
        return self.kind == CONST


TRACKERS: dict[str, type[Value]] = {}  # kind -> its VariableTracker class (see variables/)
_FIELDS = frozenset(f.name for f in fields(Value))


def const(value: Any, source: Source | None = None, **extra: Any) -> Value:
    """A ConstantVariable of a known value; over its size bound (`bounds`), one of unknown value."""
    if not bounds.fits(value):
        return too_large(SCALAR_TYPES.get(type(value)), bounds.described(value)).with_(source=source)
    return Value(CONST, source=source, value=value, pytype=SCALAR_TYPES.get(type(value)), **extra)


def compute(fn: Any, *args: Any) -> Value:
    """`fn(*args)` on known constants, as Python computes it; unknown where Python would raise,
    and where the result would be over its size bound (then without ever making it)."""
    try:
        result = bounds.checked(fn, *args)
    except bounds.TooLarge:
        return too_large(result_type(*args), bounds.described(*args))
    except Exception:  # noqa: BLE001 - Python itself would raise here; the walk just stops knowing
        return unknown()
    return const(result) if type(result) in SCALAR_TYPES else unknown()


TOO_LARGE = "too_large"  # attrs of a value over its size bound: which bound, and (`origin`) where it was noted


def too_large(pytype: str | None, what: str, kind: str | None = None) -> Value:
    """A value the walk does not follow because it would be over its size bound (`what`): of
    known type, unknown value, until the walk notes where it was made."""
    kind = kind or (CONST if pytype else UNKNOWN)
    return Value(kind, pytype=pytype, confidence="medium", attrs={TOO_LARGE: Value(CONST, value=what, pytype="str")})


def carried(*operands: Value) -> dict[str, Value]:
    """The attrs of a value computed from one too large to follow (`n * n` of such an `n`, its `len`):
    the same mark, so that where it ends up (a compiled call's argument) says where it came from."""
    for operand in operands:
        if TOO_LARGE in operand.attrs:
            return {TOO_LARGE: operand.attrs[TOO_LARGE]}
    return {}


TOO_LARGE_NOTE = "value too large to follow"


def noted(tx: Walker, value: Value, act: Act, node: cst.CSTNode) -> Value:
    """A value over its size bound, met by a walk: noted once per walk, at the place it was made
    (the first walk to meet it marks that place on it; a later one, given it as an argument or a
    global, names the same place)."""
    marker = value.attrs[TOO_LARGE]
    if marker.origin is None:
        marker = marker.with_(origin=(act.display, act.parsed.line(node)))
        value = value.with_(attrs={**value.attrs, TOO_LARGE: marker})
    display, line = marker.origin
    note = f"{TOO_LARGE_NOTE} at {display}:{line} ({marker.value}): the static pass goes on without it"
    if note not in tx.notes:
        tx.notes.append(note)
    return value


def result_type(*operands: Any) -> str | None:
    """The type of what Python computes from these operands, when it is plain: a string from a
    string (`s * n`, `fmt % v`, `s.replace(...)`), an int from ints (`n ** k`, `math.factorial(n)`)."""
    if any(isinstance(o, str) for o in operands):
        return "str"
    return "int" if operands and all(type(o) is int for o in operands) else None


def origins(*values: Value) -> tuple[Source, ...]:
    """The Sources a computed number comes from: its own, or its operands'."""
    found: list[Source] = []
    for value in values:
        found += [value.source] if value.source is not None else list(value.origins)
    return tuple(dict.fromkeys(found))


DATUM = "datum"  # attrs of a number eager code read from a tensor's data (`loss.item()`): its stamp
_data = itertools.count()


def datum(pytype: str) -> Value:
    """A number read from data (`y.mean().item()`, `float(t)`): unknown, and another one each time it is
    read (two reads of changing data are two numbers), told apart by a stamp."""
    return Value(CONST, pytype=pytype, confidence="medium", attrs={DATUM: const(f"d{next(_data)}")})


def derived(op: Any, *operands: Value) -> dict[str, Value]:
    """The stamp of a number computed from data (`(1 - p) / p`): the same inputs, the same number."""
    stamps = [o.attrs[DATUM].value for o in operands if DATUM in o.attrs]
    if not stamps:
        return {}
    shown = ",".join(str(o.attrs[DATUM].value) if DATUM in o.attrs else repr(o.value) for o in operands)
    return {DATUM: const(f"{getattr(op, '__name__', op)}({shown})")}


def unknown(confidence: str = "low") -> Value:
    return Value(UNKNOWN, confidence=confidence)


def snapshot(value: Value, depth: int = 6, memo: dict[int, dict[str, Value]] | None = None) -> Value:
    """A copy that later mutations of the object (`model.noise_std = 0.3`, `state['step'] += 1`)
    do not reach: what a compiled call saw when it was made. One object reached twice (a module
    under two names) stays one object in the copy, past the depth copied too (a config every layer
    holds, reached first through the model and again six modules down)."""
    memo = {} if memo is None else memo
    if depth <= 0:
        if not value.attrs:
            return value
        seen = memo.setdefault(id(value.attrs), value.attrs)  # not copied: reached again, it stays this one
        return value if seen is value.attrs else replace(value, attrs=seen)
    items = [snapshot(i, depth - 1, memo) for i in value.items] if value.items is not None else None
    attrs: dict[str, Value] = {}
    if value.attrs:
        seen = memo.get(id(value.attrs))
        if seen is not None:
            attrs = seen
        else:
            memo[id(value.attrs)] = attrs
            attrs.update({k: snapshot(a, depth - 1, memo) for k, a in value.attrs.items()})
    keys = list(value.keys) if value.keys is not None else None
    return replace(value, items=items, attrs=attrs, keys=keys)


def snapshots(values: dict[str, Value]) -> dict[str, Value]:
    """`snapshot` of each of a call's values, one object under two names staying one object: what the
    call passed, which what runs later (its own walk filling a cache) does not change."""
    memo: dict[int, dict[str, Value]] = {}
    return {name: snapshot(value, memo=memo) for name, value in values.items()}


# The VariableTracker classes register their kinds on import.
import vtlint.analyzer.variables  # noqa: F401
