import torch


@torch.compile
def f(x):
    n = x.sum().int()
    out = x
    for _ in range(n):  # expect: GB0059
        out = out + 1
    return out


def run():
    f(torch.tensor([1.0, 1.0]))
