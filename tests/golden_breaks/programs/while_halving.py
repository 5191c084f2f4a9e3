import torch


@torch.compile
def halve(x):
    x = x + 0
    while x.sum() > 10:  # expect: GB0170
        x = x / 2
    return x.neg()


def run():
    halve(torch.full((3,), 40.0))
