"""A call's arguments as `breaks` reads them: each one's VariableTracker kind, a tensor's dtype, the
constants the walk knows, which came from outside the frame (have a Source) and which are functions made in
the frame that close over a tensor."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables.functions import UserFunctionVariable

if TYPE_CHECKING:
    from vtlint.analyzer.walk import Walker


def arguments_of(tx: Walker, args: list[Value], kwargs: dict[str, Value]) -> breaks.Arguments:
    placed: list[tuple[int | str, Value]] = [*enumerate(args), *kwargs.items()]
    return breaks.Arguments(
        kinds=tuple(value.kind for value in args),
        keywords=tuple((name, value.kind) for name, value in kwargs.items()),
        constants=tuple((at, value.value) for at, value in placed if value.kind == V.CONST and value.known),
        dtypes=tuple((at, value.pytype) for at, value in placed if value.kind == V.TENSOR and value.pytype),
        sourced=tuple(at for at, value in placed if value.source is not None),
        tensor_closures=tuple(at for at, value in placed
                              if isinstance(value, UserFunctionVariable) and value.closes_over_tensor(tx)),
    )
