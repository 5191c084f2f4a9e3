"""Builtins Dynamo traces on tensors: max/min/sum/abs, list/tuple/enumerate/zip over rows, f-strings."""
import torch


@torch.compile
def f(x):
    y = x * 2
    biggest = max(y.sum(), y.mean())
    rows = list(zip(y, y))
    total = sum([y, y]) + abs(y)
    label = f"{y.shape}"
    return biggest + total + rows[0][0], label


def run():
    f(torch.tensor([1.0, 2.0]))
