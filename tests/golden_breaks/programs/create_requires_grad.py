import torch


@torch.compile
def f(x):
    w = torch.ones(2, requires_grad=True)  # expect: GB0225
    return x * w


def run():
    f(torch.ones(2))
