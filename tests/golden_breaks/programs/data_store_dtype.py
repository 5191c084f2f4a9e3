import torch


@torch.compile
def widen(x):
    x.data = x.double()  # expect: GB0220
    return x * 2


def run():
    widen(torch.randn(3))
