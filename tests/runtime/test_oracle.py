"""The oracle against real torch: the parser and the events layer agree with
what Dynamo 2.13 does on CPU (one subprocess for the whole module)."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle import Observation, observe
from vtlint.trace import Action

pytestmark = pytest.mark.torch

EXAMPLES = Path(__file__).parents[2] / "examples"


def _example(name: str) -> str:
    return (EXAMPLES / f"{name}.py").read_text() + "\n\ndef run():\n    main()\n"


PROGRAMS = {
    "seed": _example("seed"),
    "step_counter": _example("step_counter"),
    "pitfalls": _example("pitfalls"),
    "nested_module": """
        import torch
        from torch import nn

        class Block(nn.Module):
            def forward(self, x):
                return x * 2

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block()

            def forward(self, x):
                return self.block(x) + 1

        def run():
            torch.compile(Net())(torch.ones(2))
    """,
    "strict": """
        import torch

        def helper(t):
            print("side effect")
            return t + 1

        @torch.compile(fullgraph=True)
        def g(x):
            return helper(x)

        def run():
            g(torch.ones(2))
    """,
    "shapes": """
        import torch

        @torch.compile
        def f(x, flag):
            return x * 2 if flag else x

        def run():
            f(torch.randn(8), True)
            f(torch.randn(4), True)
            f(torch.randn(4), False)
    """,
    "flags": """
        import torch

        LIMIT = 4

        @torch.compile
        def f(x, flag, name, none):
            if flag:
                x = x + 1
            if name == "relu":
                x = x.relu()
            if none is None:
                x = x * 2
            return x + LIMIT

        def run():
            f(torch.ones(2), True, "relu", None)
    """,
}


@pytest.fixture(scope="module")
def seen() -> dict[str, Observation]:
    return observe(PROGRAMS, timeout=300)


def _keys(obs: Observation, action: Action) -> set[tuple[object, ...]]:
    return {e.key for e in obs.of(action)}


def test_seed(seen):
    seed = seen["seed"]
    assert seed.error is None
    guards = {e.guard for e in seed.of(Action.WRAP)}
    assert {"EQUALS_MATCH: L['n'] == 3", "LENGTH_CHECK: len(L['items']) == 2", "EQUALS_MATCH: L['items'][0] == 1",
            "EQUALS_MATCH: L['cfg'].scale == 2"} <= guards
    failing = {e.source: e.detail["failing_guard"] for e in seed.of(Action.RECOMPILE)}
    assert failing == {"L['n']": "n == 3", "L['cfg'].scale": "not ___dict_contains('scale', cfg.__dict__)"}
    assert ("inline", "seed.py", 19, "helper") in _keys(seed, Action.INLINE)


def test_step_counter(seen):
    (recompile,) = seen["step_counter"].of(Action.RECOMPILE)
    assert (recompile.entry, recompile.source) == ("step_counter.py:StepCounter.forward", "L['self'].step")
    assert recompile.detail["failing_guard"] == "self.step == 0"
    assert "allow_unspec_int_on_nn_module" in recompile.detail["hint"]


def test_pitfalls(seen):
    assert {(k[2], e.gb_id) for e in seen["pitfalls"].of(Action.GRAPH_BREAK) for k in [e.key]} == {
        (8, "GB0170"), (16, "GB0059"), (23, "GB0124")}


def test_module_call_is_inlined_at_the_user_call_site(seen):
    obs = seen["nested_module"]
    assert ("inline", "nested_module.py", 14, "forward") in _keys(obs, Action.INLINE)
    (inline,) = obs.of(Action.INLINE)
    assert inline.callee == "nested_module.py:Block.forward" and inline.entry == "nested_module.py:Net.forward"


def test_fullgraph_error_is_a_graph_break_and_a_program_error(seen):
    obs = seen["strict"]
    assert obs.error is not None and obs.error.startswith("Unsupported")
    (gb,) = obs.of(Action.GRAPH_BREAK)
    assert (gb.location.line, gb.gb_id, gb.detail["fullgraph"]) == (4, "GB0059", True)


def test_scalar_guard_kinds(seen):
    wraps = {e.source: (e.guard_kind, e.value) for e in seen["flags"].of(Action.WRAP)}
    assert wraps["L['flag']"] == ("TRUE_MATCH", "True")
    assert wraps["L['name']"] == ("EQUALS_MATCH", "'relu'")
    assert wraps["L['none']"] == ("NONE_MATCH", "None")
    assert wraps["G['LIMIT']"] == ("EQUALS_MATCH", "4")


def test_tensor_and_bool_recompiles(seen):
    recompiles = {e.source: e for e in seen["shapes"].of(Action.RECOMPILE)}
    assert set(recompiles) == {"L['x']", "L['flag']"}
    assert recompiles["L['x']"].guard_kind == "TENSOR_MATCH"
    assert recompiles["L['x']"].detail["failing_guard"] == "tensor 'x' size mismatch at index 0. expected 8, actual 4"
    assert recompiles["L['flag']"].guard == "TRUE_MATCH: L['flag'] == True"
