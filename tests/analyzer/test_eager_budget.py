"""The eager run's step budget: a loop of the script that calls nothing compiled and would take most of
what is left (pre-training without compile) ends after its first iteration, so that the compiled calls
after it get the budget; a loop that builds an object (a UNet's down blocks, a model's layers) runs to
its end, since the compiled model is made of what it builds. Checked against torch 2.13 with the budget
made small enough that the model's construction loop would have been cut."""

from __future__ import annotations

import pytest

import vtlint.analyzer.walk as walk
from tests.golden_breaks.golden import graph_count
from tests.oracle import observe, predict
from vtlint.trace import Action

DEEP = """
    import torch
    from torch import nn


    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.parts = nn.ModuleList([nn.Linear(4, 4) for _ in range(6)])


    class Model(nn.Module):
        def __init__(self, depth):
            super().__init__()
            self.blocks = nn.ModuleList()
            for _ in range(depth):
                self.blocks.append(Block())

        def forward(self, x):
            x = x * 2
            if len(self.blocks) > 3:  # every block built: the break is traced
                torch._dynamo.graph_break()
            return x + 1


    def run():
        model = torch.compile(Model(4))
        model(torch.randn(2, 4))
"""

SMALL_BUDGET = 2_000  # the first block's construction projects past half of it (about 4 x 300 steps)


def _breaks(events: list) -> set[tuple[int, str | None]]:
    return {(e.location.line, e.gb_id) for e in events if e.action is Action.GRAPH_BREAK}


@pytest.mark.torch
def test_a_loop_building_the_model_runs_to_its_end_whatever_it_costs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walk, "MAX_EAGER_STEPS", SMALL_BUDGET)
    said = predict({"deep": DEEP})["deep"]
    seen = observe({"deep": DEEP})["deep"].events
    assert _breaks(said) == _breaks(seen) == {(21, "GB0025")}
    assert graph_count(said) == graph_count(seen) == 2


PRETRAINED = DEEP.replace("""
    def run():
        model = torch.compile(Model(4))
        model(torch.randn(2, 4))
""", """
    def evaluate(model, x):
        for block in model.blocks:
            for part in block.parts:
                x = part(x)
        return x


    def run():
        model = Model(4)
        for _ in range(400):  # evaluated without compile: cut after its first iteration
            evaluate(model, torch.randn(2, 4))
        compiled = torch.compile(model)
        compiled(torch.randn(2, 4))
""")


@pytest.mark.torch
def test_a_script_loop_that_calls_nothing_compiled_leaves_the_budget_to_the_compiled_call(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walk, "MAX_EAGER_STEPS", SMALL_BUDGET)
    said = predict({"pretrained": PRETRAINED})["pretrained"]
    seen = observe({"pretrained": PRETRAINED})["pretrained"].events
    assert _breaks(said) == _breaks(seen) == {(21, "GB0025")}


ALIKE = """
    import torch
    from torch import nn


    class Block(nn.Module):
        def __init__(self, dim, eps):
            super().__init__()
            self.parts = nn.ModuleList([nn.Linear(dim, dim) for _ in range(6)])
            self.eps = eps

        def forward(self, x):
            for part in self.parts:
                x = part(x)
            return x + self.eps


    class Model(nn.Module):
        def __init__(self, depth):
            super().__init__()
            self.blocks = nn.ModuleList([Block(4, 0.5) for _ in range(depth)])

        def forward(self, x):
            for block in self.blocks:
                x = block(x)
            return x


    def run():
        torch.compile(Model(12))(torch.randn(2, 4))
"""


def _block_reads(events: list) -> set[str]:
    return {e.source for e in events if e.action is Action.WRAP and e.source and e.source.endswith(".eps")}


@pytest.mark.torch
def test_blocks_built_alike_are_built_once_and_copied(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twelve blocks from the same constant arguments cost one walk of `__init__`: the budget that one
    block's construction fits in builds them all, each its own object with its own Source."""
    monkeypatch.setattr(walk, "MAX_EAGER_STEPS", SMALL_BUDGET)
    said = _block_reads(predict({"alike": ALIKE})["alike"])
    seen = _block_reads(observe({"alike": ALIKE})["alike"].events)
    assert said == seen == {f"L['self'].blocks._modules['{i}'].eps" for i in range(12)}
