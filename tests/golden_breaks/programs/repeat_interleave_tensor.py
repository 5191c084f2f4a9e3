import torch


@torch.compile
def f(x, r):
    y = x * 2
    return torch.repeat_interleave(y, r)  # expect: GB0036


def run():
    f(torch.tensor([1.0, 2.0]), torch.tensor([1, 2]))
