"""The sizes the walk gives tensors it builds: the pieces of `chunk`, `split` and `unbind` (checked against
torch's own), a reshape of a tensor whose sizes it does not know."""

from __future__ import annotations

from typing import Any

import pytest

from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables.shapes import pieces, reshaped

CASES: list[tuple[tuple[int, ...], str, list[Any], dict[str, Any]]] = [
    ((8, 32), "chunk", [2], {"dim": -1}),
    ((7, 4), "chunk", [3], {}),  # the last chunk is the smaller
    ((6, 4), "chunk", [4], {}),  # torch makes 3 pieces of 2, not 4
    ((5, 6), "split", [2], {"dim": 1}),
    ((5, 6), "split", [[1, 5]], {"dim": 1}),
    ((3, 2, 4), "unbind", [1], {}),
    ((3, 2), "unbind", [], {}),
]


def _value(argument: Any) -> Value:
    return Value(V.LIST, items=[V.const(n) for n in argument]) if isinstance(argument, list) else V.const(argument)


@pytest.mark.parametrize(("shape", "method", "args", "kwargs"), CASES)
def test_pieces_agree_with_torch(shape: tuple[int, ...], method: str, args: list[Any], kwargs: dict[str, Any]) -> None:
    torch = pytest.importorskip("torch")
    theirs = [list(t.shape) for t in getattr(torch.zeros(shape), method)(*args, **kwargs)]
    receiver = Value(V.TENSOR, items=[V.const(n) for n in shape])
    found = pieces(method, receiver, [_value(a) for a in args], {k: _value(v) for k, v in kwargs.items()})
    assert found is not None
    assert [[size.value for size in p] for p in found if p is not None] == theirs


def test_a_size_the_data_decides_is_kept_in_every_chunk() -> None:
    tokens = Value(V.CONST, pytype="int", attrs={"data_dependent": V.const(True)})
    found = pieces("chunk", Value(V.TENSOR, items=[tokens, V.const(32)]), [V.const(2)], {"dim": V.const(-1)})
    assert found is not None and len(found) == 2
    assert all(p is not None and p[0] is tokens and p[1].value == 16 for p in found)


def test_chunks_of_an_unknown_size_are_as_many_as_asked() -> None:
    found = pieces("chunk", Value(V.TENSOR, items=[Value(V.CONST, pytype="int")]), [V.const(3)], {})
    assert found is not None and len(found) == 3 and all(p is not None and not p[0].known for p in found)


def test_a_reshape_of_unknown_sizes_keeps_the_sizes_asked_for() -> None:
    """`attn_output.reshape(*input_shape, -1)` of an attention output whose sizes the walk lost: the batch and
    sequence sizes asked for, the last of unknown size (a projection then gives it)."""
    found = reshaped(Value(V.TENSOR), [V.const(1), V.const(8), V.const(-1)])
    assert found is not None and [s.value for s in found[:2]] == [1, 8] and not found[2].known
