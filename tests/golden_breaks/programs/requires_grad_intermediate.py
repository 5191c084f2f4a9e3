import torch


@torch.compile
def make_leaf(x):
    y = x * 2
    y.requires_grad_()  # expect: GB8985
    return y + 1


def run():
    make_leaf(torch.randn(3))
