import torch


@torch.compile
def track(x):
    x.requires_grad_()  # expect: GB0125
    return x * 2


def run():
    track(torch.randn(3))
