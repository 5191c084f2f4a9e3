import torch


@torch.compile
def leaf_of(x):
    y = x * 2
    y.requires_grad = True  # expect: GB0206
    return y


@torch.compile
def mark_input(x):
    x.requires_grad = True  # expect: GB0206
    return x * 2


def run():
    leaf_of(torch.randn(3))
    mark_input(torch.randn(3))
