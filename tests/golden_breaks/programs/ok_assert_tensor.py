import torch


@torch.compile
def checked(x):
    assert x.abs().sum() >= 0, "negative norm"
    return x + 1


def run():
    checked(torch.randn(3))
