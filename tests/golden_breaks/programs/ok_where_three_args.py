import torch


@torch.compile
def f(x):
    y = x * 2
    return torch.where(y > 1, y, 0.0)


def run():
    f(torch.tensor([0.0, 1.0, 2.0]))
