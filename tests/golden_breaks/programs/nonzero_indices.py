import torch


@torch.compile
def active(x):
    idx = x.nonzero()  # expect: GB0036
    return idx.sum()


def run():
    active(torch.tensor([0.0, 1.0, 0.0, 2.0]))
