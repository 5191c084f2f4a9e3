"""A set of tensors passed to a compiled function: Dynamo cannot order it, and refuses it where the frame
first reads it (GB0222); the frame runs eagerly (ok_set_from_tensor: a set of Python numbers is traced)."""
import torch


@torch.compile
def accumulate(x, seen):
    y = x * 2
    for t in seen:  # expect: GB0222
        y = y + t
    return y


def run():
    a, b = torch.randn(3), torch.randn(3)
    accumulate(torch.randn(3), {a, b})
