import torch


@torch.compile
def f(x):
    y = x * 2
    u = torch.unique(y)  # expect: GB0036
    return u.sum()


def run():
    f(torch.tensor([1.0, 2.0, 2.0]))
