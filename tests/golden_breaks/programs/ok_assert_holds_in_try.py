"""An `assert` that holds inside a try block is traced; one that fails there breaks and skips the frame
(assert_caught_in_try)."""
import torch


@torch.compile
def checked(x, n):
    y = x * 2
    try:
        assert n > 0, "n too small"
    except AssertionError:
        pass
    return y


def run():
    checked(torch.randn(3), 1)
