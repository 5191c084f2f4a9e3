"""The calling script's command line: `argparse.ArgumentParser`, modelled natively for the
eager run. A script run as the program's entry point gets each option's default, so
`args.temperature` is the `default=0.8` of `--temperature` (with medium confidence: a
user may pass another value on the command line)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import values as V
from vtlint.analyzer.sources import AttrSource, attr_source
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables.dicts import set_item

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker

PARSER_CLASSES = frozenset({"argparse.ArgumentParser"})
_STORE_CONST = {"store_true": False, "store_false": True}  # the default each action implies


class ArgumentParserVariable(Value):
    """Its options as a dict: `keys` the destinations, `items` their defaults."""

    tracks = (V.PARSER,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        return Value(V.LIB, ref=f"argparse.ArgumentParser.{name}", bound_self=self)

    def call_method(self, tx: Walker, method: str, args: list[Value], kwargs: dict[str, Value], act: Act,
                    node: cst.Call) -> Value:
        if method == "add_argument":
            self._add(args, kwargs)
        elif method == "set_defaults":
            for dest, value in kwargs.items():
                self._store(dest, value)
        elif method in ("add_argument_group", "add_mutually_exclusive_group"):
            return self  # a group's options land in the same namespace
        elif method == "parse_args":
            return self.namespace(args)
        elif method == "parse_known_args":
            return Value(V.TUPLE, items=[self.namespace(args), Value(V.LIST, items=[])])
        return V.unknown()

    def namespace(self, args: list[Value]) -> Value:
        """The defaults, when the script parses no arguments (`parse_args()` run bare, or
        `parse_args([])`); an explicit argument list the walk cannot parse leaves them unknown."""
        given = args[0] if args else None
        if given is not None and not (given.kind == V.LIST and given.items == []):
            return Value(V.NAMESPACE)
        keys, items = self.keys or [], self.items or []
        return Value(V.NAMESPACE, attrs={k: v.with_(confidence="medium") if v.confidence == "high" else v
                                         for k, v in zip(keys, items)})

    def _add(self, args: list[Value], kwargs: dict[str, Value]) -> None:
        flags = [a.value for a in args if a.known and isinstance(a.value, str)]
        if len(flags) != len(args) or not flags:
            return
        dest_value = kwargs.get("dest")
        if dest_value is not None:
            dest = dest_value.value if dest_value.known else None
        else:
            longs = [f for f in flags if f.startswith("--")]
            dest = (longs or flags)[0].lstrip("-").replace("-", "_")
        if not isinstance(dest, str):
            return
        action = kwargs.get("action")
        if "default" in kwargs:
            default = kwargs["default"]
        elif action is not None and action.known and action.value in _STORE_CONST:
            default = V.const(_STORE_CONST[action.value])
        elif flags[0].startswith("-"):
            default = V.const(None)
        else:
            default = V.unknown()  # a positional argument: only the command line gives it
        self._store(dest, default.with_(source=None))

    def _store(self, dest: str, value: Value) -> None:
        keys, items = list(self.keys or []), list(self.items or [])
        set_item(keys, items, dest, value)
        self.keys, self.items = keys, items


class NamespaceVariable(Value):
    """`args = parser.parse_args()`: one attribute per option."""

    tracks = (V.NAMESPACE,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        """Passed into the frame, it is a UserDefinedObjectVariable like any other: `args.vf_coef`
        is read through `L['args']` and guarded there."""
        value = self.attrs.get(name)
        if value is None:
            return Value(V.UNKNOWN, source=attr_source(self.source, name), confidence="low") if self.source \
                else V.unknown()
        if self.source is None or value.source is not None or (id(self.attrs), name) in tx.stored:
            return value
        return value.with_(source=AttrSource(self.source, name))


def new_parser() -> Value:
    return Value(V.PARSER, keys=[], items=[])
