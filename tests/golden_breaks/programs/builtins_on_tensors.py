"""Builtins BuiltinVariable has no tensor handler for, and any()/all() that branch on each element."""
import torch


@torch.compile
def ordered(x):
    y = x * 2
    return sorted(y)  # expect: GB0059


@torch.compile
def squared(x):
    y = x * 2
    return pow(y, 2) + 1  # expect: GB0059


@torch.compile
def code_point(x):
    y = x * 2
    return chr(y.sum().int()), y  # expect: GB0059


@torch.compile
def positive(x):
    y = x * 2
    if any(y):  # expect: GB0170
        return y
    return -y


@torch.compile
def nonzero_all(x):
    y = x * 2
    return all(y), y  # expect: GB0170


def run():
    x = torch.tensor([1.0, 2.0])
    ordered(x)
    squared(x)
    code_point(torch.tensor([40.0, 2.0]))
    positive(x)
    nonzero_all(x)
