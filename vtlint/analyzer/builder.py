"""The VariableBuilder: the one place where a value from outside the frame is wrapped
and its guard decided, as `torch/_dynamo/variables/builder.py` does it in torch 2.13.

The walk asks it when traced code first *uses* a value that carries a Source (Dynamo
wraps lazily: a value only read and passed on is realized, and guarded, where it is
used). It answers with the guard Dynamo installs, or nothing:

- int / float / str: `EQUALS_MATCH` (CONSTANT_MATCH), unless `dynamic=True` makes the
  number a SymInt/SymFloat guarded on its type only (nn.Module ints stay static);
- bool: `TRUE_MATCH` / `FALSE_MATCH`; None: `NONE_MATCH`;
- list / tuple: `LENGTH_CHECK` (SEQUENCE_LENGTH), its elements wrapped one by one, except
  a tuple of literals read through an nn.Module (`LayerNorm.normalized_shape`,
  `Conv2d.stride`), which is one `EQUALS_MATCH` on the whole tuple;
- a dict iterated in the frame: its key order (`list(dict.keys(d))[0] == 'a'`);
- an enum member: `ID_MATCH` on the member object."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vtlint.analyzer import values as V
from vtlint.analyzer.bounds import fits
from vtlint.analyzer.sources import AttrSource, DictKeysSource, Source
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables.sets import FROZEN, shown_set
from vtlint.analyzer.variables.tensor import dtype_of
from vtlint.config import DynamoSettings


@dataclass(frozen=True)
class Guard:
    """A guard Dynamo installs on a Source, with what the walk knows of its value."""

    source: Source
    variable_tracker: str
    kind: str  # EQUALS_MATCH, LENGTH_CHECK, ...
    text: str | None  # as Dynamo prints it, when the value is known
    value: str | None
    confidence: str
    detail: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def key(self) -> tuple[str, Source]:
        """One guard of each kind per Source and frame."""
        return (self.kind if self.kind in ("LENGTH_CHECK", "DICT_KEYS") else "VALUE", self.source)


class VariableBuilder:
    def __init__(self, settings: DynamoSettings) -> None:
        self.settings = settings

    def realize(self, value: Value) -> Guard | None:
        """The guard installed when a value with a Source is used (arithmetic, a branch,
        an argument to a graph op, an index)."""
        if value.source is None:
            return None
        if value.kind == V.CONST:
            return self._literal(value, value.source)
        if value.kind == V.ENUM:
            return Guard(value.source, V.ENUM, "ID_MATCH", f"ID_MATCH: ___check_obj_id({value.source.name()}, ...)",
                         _repr(value), value.confidence)
        if value.kind == V.TUPLE and self.is_constant_tuple(value):
            return self._constant_tuple(value, value.source)
        if value.kind == V.SET:
            return self._set(value, value.source)
        dtype = dtype_of(value)
        if dtype is not None:  # a torch.dtype is a ConstantVariable: `G['torch'].long == torch.int64`
            text = f"EQUALS_MATCH: {value.source.name()} == torch.{dtype}"
            return Guard(value.source, V.CONST, "EQUALS_MATCH", text, f"torch.{dtype}", value.confidence)
        return None

    def length(self, value: Value, fields: int | None = None) -> Guard | None:
        """A list or tuple from outside: SEQUENCE_LENGTH (dicts get no length check); a NamedTuple
        (an object of `fields` fields) gets one too."""
        if value.source is None or (value.kind not in (V.LIST, V.TUPLE) and fields is None) \
                or self.is_constant_tuple(value):
            return None
        length = fields if fields is not None else len(value.items) if value.items is not None else None
        text = f"LENGTH_CHECK: len({value.source.name()}) == {length}" if length is not None else None
        return Guard(value.source, value.kind, "LENGTH_CHECK", text, str(length) if length is not None else None,
                     value.confidence if length is not None else "medium")

    def key_order(self, value: Value) -> Guard | None:
        """Iterating a dict from outside guards its key order: `list(dict.keys(L['d']))[0] == 'a'`."""
        if value.source is None or not value.keys:
            return None
        keys = DictKeysSource(value.source)
        return Guard(value.source, V.DICT, "DICT_KEYS",
                     f"EQUALS_MATCH: {keys.raw_name()} == {value.keys[0]!r}", repr(value.keys), value.confidence,
                     {"raw_source": keys.raw_name(), "guard_kind": "EQUALS_MATCH"})

    @staticmethod
    def is_constant_tuple(value: Value) -> bool:
        """`istype(value, tuple)` read through an nn.Module, every item a literal (or, for the module's
        own attribute, a value the walk cannot know: `normalized_shape = (config.hidden_size,)`)."""
        return (value.kind == V.TUPLE and value.source is not None and value.source.is_nn_module()
                and value.items is not None and all(
                    i.kind == V.CONST or (i.kind == V.UNKNOWN and value.owner is not None) for i in value.items))

    def _constant_tuple(self, value: Value, source: Source) -> Guard:
        assert value.items is not None
        known = all(_shown(i) for i in value.items)
        shown = repr(tuple(i.value for i in value.items)) if known else None
        text = f"EQUALS_MATCH: {source.name()} == {shown}" if known else None
        # a TupleVariable of ConstantVariables, guarded as one value
        return Guard(source, V.TUPLE, "EQUALS_MATCH", text, shown, value.confidence if known else "medium",
                     self._raw(source))

    def _set(self, value: Value, source: Source) -> Guard:
        """A set from outside (`G['KINDS']`): a SetVariable of its constants, guarded whole (EQUALS_MATCH);
        its elements shown sorted (Python's order of strings changes from run to run)."""
        shown = shown_set(value)
        text = f"EQUALS_MATCH: {source.name()} == {shown}" if shown is not None else None
        tracker = "FrozensetVariable" if FROZEN in value.attrs else V.SET
        return Guard(source, tracker, "EQUALS_MATCH", text, shown, value.confidence if shown else "medium",
                     self._raw(source))

    def _literal(self, value: Value, source: Source) -> Guard | None:
        pytype = value.pytype
        if pytype is None:
            return None
        # Dynamo keeps nn.Module int attributes static (is_int_specialization_case)
        module_int = pytype == "int" and source.is_nn_module()
        static = module_int and not self.settings.allow_unspec_int_on_nn_module
        detail = self._raw(source)
        name = source.name()
        if pytype in ("int", "float") and self.settings.dynamic is True and not static:
            # dynamic=True: a SymInt/SymFloat input, guarded on its type only (None or a float
            # passed later fails it)
            return Guard(source, "SymNodeVariable", "TYPE_MATCH",
                         f"TYPE_MATCH: ___check_type_id({name}, ...), type=<class '{pytype}'>", _repr(value), "medium",
                         detail)
        known = _shown(value)
        if pytype == "NoneType":
            kind, text = "NONE_MATCH", f"NONE_MATCH: {name} is None"
        elif pytype == "bool":
            kind = ("TRUE_MATCH" if value.value else "FALSE_MATCH") if known else "TRUE_MATCH"
            text = f"{kind}: {name} == {value.value!r}" if known else None
        else:
            kind = "EQUALS_MATCH"
            text = f"EQUALS_MATCH: {name} == {value.value!r}" if known else None
        if module_int:
            detail["nn_module_attribute"] = True
            detail["static"] = static
        if "from_item" in value.attrs:
            detail["from_item"] = True  # a number `.item()` read from a tensor: new data, new value
        if value.owner is not None and isinstance(source, AttrSource):
            detail["owner"] = value.owner  # the class whose methods may assign it (recompiles)
            detail["attribute"] = source.member
        return Guard(source, V.CONST, kind, text, _repr(value), value.confidence if known else "medium", detail)

    @staticmethod
    def _raw(source: Source) -> dict[str, Any]:
        raw = source.raw_name()
        return {"raw_source": raw} if raw != source.name() and "__dict__" in raw else {}


def _shown(value: Value) -> bool:
    """Whether a guard can print the value: known, and within its size bound (`repr` of an int
    past 4,300 digits raises)."""
    return value.known and fits(value.value)


def _repr(value: Value) -> str | None:
    return repr(value.value) if _shown(value) else None
