"""Asserts whose message is a string Dynamo knows: one that holds, with an f-string, is traced; one that fails
inside a try with a message held in a variable raises AssertionError("...") and the handler runs, traced
(a literal message there breaks: assert_caught_in_try)."""
import torch


@torch.compile
def ranked(x):
    y = x * 2
    assert y.dim() == 1, f"bad rank {y.dim()}"
    return y + 1


@torch.compile
def fallback(x):
    y = x * 2
    msg = "expected a batch"
    try:
        assert y.dim() == 3, msg
    except AssertionError:
        y = y - 1
    return y + 1


def run():
    ranked(torch.randn(3))
    fallback(torch.randn(3))
