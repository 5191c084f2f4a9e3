import torch


@torch.compile
def f(x, table):
    k = x.argmax()
    return x * table[k]  # expect: GB0124


def run():
    f(torch.tensor([0.0, 3.0, 1.0]), (1.0, 2.0, 3.0))
