"""A failing `assert` whose message is not a string: Dynamo builds `AssertionError(message)` and refuses it
(GB0171), in a try (the frame skipped) or not (the graph before it compiled)."""
import torch


@torch.compile
def checked_rank(x):
    try:
        assert x.dim() == 3, x.shape  # expect: GB0171
    except AssertionError:
        return x.unsqueeze(0)
    return x


@torch.compile
def scaled(x):
    y = x * 2
    assert y.dim() == 3, (y.dim(), "expected a batch")  # expect: GB0171
    return y


def run():
    checked_rank(torch.randn(3))
    try:
        scaled(torch.randn(3))
    except AssertionError:
        pass
