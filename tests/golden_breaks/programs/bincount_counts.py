import torch


@torch.compile
def f(x):
    y = x + 0
    return torch.bincount(y)  # expect: GB0036


def run():
    f(torch.tensor([0, 1, 1, 3]))
