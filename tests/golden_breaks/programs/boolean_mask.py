import torch


@torch.compile
def positives(x):
    return x[x > 0].sum()  # expect: GB0036


def run():
    positives(torch.randn(10))
