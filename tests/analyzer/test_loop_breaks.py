"""A break inside a loop: whether torch 2.13 skips the frame (its maybe_has_backedge, read from the frame's
bytecode) and what the loop's resume functions compile. Every expectation here was measured on torch 2.13
(the golden programs loop_if_return_resumes, loop_jump_back_skips, loop_iterator_not_rebuilt,
loop_resumes_per_iteration, loop_iterators_dynamo_cannot_rebuild, loop_resume_hits_recompile_limit)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import libcst as cst
import pytest

from vtlint.analyzer import Prediction
from vtlint.analyzer.index import parsed_module
from vtlint.analyzer.loop_breaks import (
    CACHE_HIT,
    COMPILED,
    OVER_LIMIT,
    TUPLE_ITERATOR,
    Handed,
    Point,
    ResumeCache,
    has_backedge,
)
from vtlint.analyzer.summary import summarize
from vtlint.trace import Action

Predict = Callable[..., Prediction]

LOOPS = {
    # the loop's jump back comes after a return: the frame resumes
    "if_return": ("for w in ws:\n    x = x * w\n    if x.sum() > 1e9:\n        return x\nreturn x", False),
    "while_if_return": ("i = 0\nwhile i < 3:\n    x = x * 2\n    if x.sum() > 1e9:\n        return x\n"
                        "    i += 1\nreturn x", False),
    "return_a_call": ("for w in ws:\n    if w > 1.5:\n        return print(x)\nreturn x", False),
    # the jump back comes first: skipped
    "if_falls_through": ("for w in ws:\n    if x.sum() > 1e9:\n        x = x - 1\nreturn x", True),
    "else_return": ("for w in ws:\n    if x.sum() < 1e9:\n        x = x * w\n    else:\n        return x\nreturn x",
                    True),
    "continue_after": ("for w in ws:\n    if x.sum() > 1e9:\n        continue\n    x = x + 1\nreturn x", True),
    "break_out": ("for w in ws:\n    if x.sum() > 1e9:\n        break\nreturn x", True),
    "call_then_more": ("for w in ws:\n    print(w)\n    x = x * w\nreturn x", True),
}


def _point(fn: cst.FunctionDef) -> tuple[cst.CSTNode, bool]:
    """The first data-dependent test (`x.sum()` in it) or the first `print` call of the function."""
    found: list[tuple[cst.CSTNode, bool]] = []

    class Find(cst.CSTVisitor):
        def visit_If(self, node: cst.If) -> None:
            if "sum" in cst.Module([]).code_for_node(node.test):
                found.append((node.test, True))

        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value == "print":
                found.append((node, False))

    fn.visit(Find())
    return found[0]


@pytest.mark.parametrize("name", list(LOOPS))
def test_a_loop_break_skips_the_frame_as_its_bytecode_says(name: str) -> None:
    body, skips = LOOPS[name]
    text = "def f(x, ws):\n" + textwrap.indent(body, "    ") + "\n"
    module = cst.parse_module(text)
    parsed = parsed_module(summarize(module, "m.py", text), text, module)
    fn = parsed.functions["f"]
    assert isinstance(fn, cst.FunctionDef)
    node, jump = _point(fn)
    assert has_backedge(parsed, fn, Point(node, jump), {}) is skips


def test_a_resume_cache_compiles_each_iterator_length_up_to_the_limit() -> None:
    cache = ResumeCache(limit=3)
    outcomes = [cache.enter((Handed("L['___stack0']", TUPLE_ITERATOR, left),), {}) for left in (5, 4, 3, 2)]
    assert [o for o, _ in outcomes] == [COMPILED, COMPILED, COMPILED, OVER_LIMIT]
    assert outcomes[1][1] is not None and outcomes[1][1].guard == (
        "TUPLE_ITERATOR_LEN: ___tuple_iterator_len(L['___stack0']) == 5")


def test_a_resume_cache_makes_a_counter_dynamic_after_one_recompile() -> None:
    cache = ResumeCache(limit=8)
    assert cache.enter((), {"n": 0})[0] == COMPILED
    outcome, failure = cache.enter((), {"n": 1})
    assert outcome == COMPILED and failure is not None and failure.once and failure.source == "L['n']"
    assert cache.enter((), {"n": 2})[0] == CACHE_HIT


RESUMED = """
    import torch

    @torch.compile
    def scaled(x, ws):
        for w in ws:
            x = x * w
            if x.sum() > 1e9:
                return x
        return x

    def run():
        scaled(torch.ones(3), [1.0, 2.0, 3.0])
"""


def test_a_resumed_loop_hands_its_iterator_to_each_resume_frame(predict: Predict) -> None:
    prediction = predict({"prog.py": RESUMED})
    [frame] = [e for e in prediction.events if e.action is Action.FRAME]
    assert frame.detail["graph_count"] == 3 and not frame.detail["frame_skipped"]
    sources = {e.source for e in prediction.events if e.action is Action.WRAP and e.guard_kind == "EQUALS_MATCH"}
    assert sources == {"L['ws'][0]", "L['ws'][1]", "L['ws'][2]", "L['___stack0'][0]", "L['___stack0'][1]"}
    [recompile] = [e for e in prediction.events if e.action is Action.RECOMPILE]
    assert recompile.source == "L['___stack0']" and recompile.guard_kind == "TUPLE_ITERATOR_LEN"
    assert recompile.detail["recompiles"] == 2
