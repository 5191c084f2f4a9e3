"""What the walks of one analysis share, and what they skip: whether a function yields is found once for
every entry that enters it, and a call that eager code makes (a constructor's) looks up no place, since
nothing eager code does is reported (so a module only constructors enter need not be positioned)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import libcst as cst
import pytest

from vtlint.analyzer import Prediction
from vtlint.analyzer import walk as analyzer_walk
from vtlint.trace import Action

# Two entries enter the generator `steps` and the plain `double`, which both constructors run eagerly (where
# the walk asks whether a function yields: a generator run eagerly hands its loop what it yields).
FILES = {
    "src/layers.py": """
        import torch
        from torch import nn


        def steps(n):
            for i in range(n):
                yield i


        def double(x):
            return x * 2


        class Block(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.n = double(sum(steps(3)))

            def forward(self, x):
                for i in steps(2):
                    x = double(x) + i
                return x * self.n


        class Net(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.a = Block()
                self.b = Block()

            def forward(self, x):
                return double(self.b(self.a(x)))
        """,
}


def _events(prediction: Prediction) -> list[dict[str, Any]]:
    return [e.to_dict() for e in prediction.events]


def test_whether_a_function_yields_is_found_once_per_analysis(predict: Callable[..., Prediction],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    asked: Counter[str] = Counter()
    answers: dict[str, bool] = {}
    real = analyzer_walk._yields

    def spy(fn: cst.FunctionDef | cst.Lambda) -> bool:
        name = fn.name.value if isinstance(fn, cst.FunctionDef) else "<lambda>"
        asked[name] += 1
        answers[name] = real(fn)
        return answers[name]

    monkeypatch.setattr(analyzer_walk, "_yields", spy)
    shared = predict(FILES, assume_compiled=("forward",))
    assert asked["steps"] == asked["double"] == 1  # run by both entries' constructors
    assert answers["steps"] is True and answers["double"] is False
    # the same walks as when every walk asks again
    monkeypatch.setattr(analyzer_walk.Walker, "is_generator", lambda self, fn: real(fn))
    assert _events(predict(FILES, assume_compiled=("forward",))) == _events(shared)


def test_eager_calls_look_up_no_place(predict: Callable[..., Prediction], monkeypatch: pytest.MonkeyPatch) -> None:
    eager_lookups: list[str] = []
    real = analyzer_walk.Walker.loc

    def spy(self: analyzer_walk.Walker, act: analyzer_walk.Act, node: cst.CSTNode) -> Any:
        if self.eager:
            eager_lookups.append(act.qualname)
        return real(self, act, node)

    monkeypatch.setattr(analyzer_walk.Walker, "loc", spy)
    prediction = predict(FILES, assume_compiled=("forward",))
    assert eager_lookups == []
    # the traced calls' chains are placed as ever: Net.forward -> Block.forward -> double
    inlines = [e for e in prediction.events if e.action is Action.INLINE and e.entry.endswith("Net.forward")
               and e.callee.endswith(":double") and e.chain]
    assert inlines and all(link.location.line > 0 for e in inlines for link in e.chain)



@pytest.mark.parametrize(("body", "yields"), [
    ("    yield x\n", True),
    ("    return (yield)\n", True),
    ("    yield from range(x)\n", True),
    ("    if x:\n        for i in x:\n            y = yield i\n", True),
    ("    return (i for i in x)\n", False),  # a generator expression is a frame of its own
    ("    def inner():\n        yield x\n    return inner\n", False),
    ("    class C:\n        def g(self):\n            yield 1\n    return C\n", False),
    ("    return lambda: x\n", False),
    ("    return x\n", False),
])
def test_a_body_yields_only_by_its_own_code(body: str, yields: bool) -> None:
    fn = cst.parse_module(f"def f(x):\n{body}").body[0]
    assert isinstance(fn, cst.FunctionDef)
    assert analyzer_walk._yields(fn) is yields
