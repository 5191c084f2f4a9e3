"""`Tensor.uniform_(a, b)` with its bounds given by position is traced; the `from` keyword breaks
(uniform_from_keyword)."""
import torch


@torch.compile
def noise(x):
    y = x * 2
    y.uniform_(0.0, 1.0)
    return y + 1


def run():
    noise(torch.randn(3))
