"""A function made by a factory in the script and passed to a compiled function: the walk of the
compiled frame inlines it with the cells its own run closed over, and a later closure of the same
`def` fails the guard on a cell, not an identity guard (golden: closure_passed_by_the_caller)."""

from __future__ import annotations

from collections.abc import Callable

from vtlint.analyzer import Prediction
from vtlint.trace import Action

Predict = Callable[..., Prediction]

FACTORY = """
    import torch

    def f(x):
        def g(y):
            return y + x
        return g

    @torch.compile
    def h(x, g):
        return g(x)

    def run():
        t = torch.ones(3)
        h(t, f(1))
        h(t, {second})
"""


def test_a_closure_made_by_the_script_is_inlined_and_its_cell_recompiles(predict: Predict) -> None:
    prediction = predict({"prog.py": FACTORY.format(second="f(2)")})
    inlined = [e.callee for e in prediction.events if e.action is Action.INLINE]
    assert inlined == ["prog.py:f.<locals>.g"]
    [recompile] = [e for e in prediction.events if e.action is Action.RECOMPILE]
    assert recompile.location.line == 15 and recompile.source is None
    assert recompile.guard == "EQUALS_MATCH: L['g'].__closure__[0].cell_contents == 1"
    assert recompile.detail["cell"] == "x" and recompile.detail["once"] is True
    [frame] = [e for e in prediction.events if e.action is Action.FRAME]
    assert frame.detail["compiles"] == 2


def test_a_closure_over_the_same_value_recompiles_nothing(predict: Predict) -> None:
    prediction = predict({"prog.py": FACTORY.format(second="f(1)")})
    assert [e for e in prediction.events if e.action is Action.RECOMPILE] == []
