import torch


@torch.compile
def keep_grad(x):
    y = x * 2
    y.retain_grad()  # expect: GB0108
    return y.sum()


def run():
    keep_grad(torch.randn(3, requires_grad=True))
