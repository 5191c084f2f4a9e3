"""An `assert` whose message joins a literal and an f-string (`"rank " f"{n}"`) is built by BUILD_STRING,
not one constant: Dynamo leaves a plain jump, a data-dependent branch on a tensor test. The walk said so
only after reading the message's parts (it raised a TypeError first: two helpers shared one name)."""

from __future__ import annotations

import pytest

from tests.oracle import observe, predict
from vtlint.trace import Action

PROGRAM = """
    import torch


    def f(x, n):
        assert x.sum() > -1e9, "rank " f"{n}"
        return x + 1


    def run():
        torch.compile(f)(torch.randn(3), 2)
"""


@pytest.mark.torch
def test_a_message_built_from_an_f_string_part_leaves_a_plain_jump() -> None:
    said = predict({"joined": PROGRAM})["joined"]
    seen = observe({"joined": PROGRAM})["joined"].events

    def breaks(events: list) -> set[tuple[int, str | None]]:
        return {(e.location.line, e.gb_id) for e in events if e.action is Action.GRAPH_BREAK}

    assert breaks(said) == breaks(seen)
    assert breaks(seen), "torch breaks on the tensor's assert"
