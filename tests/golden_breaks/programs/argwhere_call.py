import torch


@torch.compile
def f(x):
    y = x * 2
    return torch.argwhere(y).sum()  # expect: GB0036


def run():
    f(torch.tensor([0.0, 1.0, 2.0]))
