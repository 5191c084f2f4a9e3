import torch


@torch.compile
def f(x):
    y = x * 2
    return y.repeat_interleave(2, dim=-1)


def run():
    f(torch.ones(2, 2))
