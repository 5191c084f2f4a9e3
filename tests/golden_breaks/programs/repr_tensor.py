import torch


@torch.compile
def describe(x):
    text = repr(x)  # expect: GB0569
    return x + 1


def run():
    describe(torch.randn(3))
