"""Abstract values: the static counterpart of Dynamo's VariableTracker family.

A `Value` is what the symbolic walk holds where Dynamo holds a VariableTracker:
its kind (Tensor, Constant, List, ...), its Source when it came from outside the
graph (`L['n']`, `G['cfg'].scale`) and, for constants, the Python value when the
static pass can know it. Values are plain data (picklable) so module summaries
can be cached and shipped between processes."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from vtlint.analyzer.sources import Source


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
RANGE = "RangeVariable"
CALL = "CallResult"  # summary-only: `ref(*items, **attrs)` written at module level (items None: a spread)
NAME = "NameRef"  # summary-only: another global's name
UNKNOWN = "Unknown"

SCALAR_TYPES = {bool: "bool", int: "int", float: "float", str: "str", type(None): "NoneType"}


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

    def with_(self, **changes: Any) -> Value:
        return replace(self, **changes)

    @property
    def known(self) -> bool:
        return not isinstance(self.value, Missing)

    @property
    def is_scalar(self) -> bool:
        return self.kind == CONST


def const(value: Any, source: Source | None = None, **extra: Any) -> Value:
    return Value(CONST, source=source, value=value, pytype=SCALAR_TYPES.get(type(value)), **extra)


def unknown(confidence: str = "low") -> Value:
    return Value(UNKNOWN, confidence=confidence)


def snapshot(value: Value, depth: int = 6) -> Value:
    """A copy that later mutations of the object (`model.noise_std = 0.3`, `state['step'] += 1`)
    do not reach: what a compiled call saw when it was made."""
    if depth <= 0:
        return value
    items = [snapshot(i, depth - 1) for i in value.items] if value.items is not None else None
    attrs = {k: snapshot(a, depth - 1) for k, a in value.attrs.items()} if value.attrs else {}
    keys = list(value.keys) if value.keys is not None else None
    return replace(value, items=items, attrs=attrs, keys=keys)
