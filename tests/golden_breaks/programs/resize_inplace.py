import torch


@torch.compile
def grow(x):
    y = x.clone()
    y.resize_(8)  # expect: GB0126
    return y + 1


def run():
    grow(torch.randn(4))
