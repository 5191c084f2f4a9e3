import torch


@torch.compile
def accumulate(xs):
    total = 0.0
    for i in range(xs.shape[0]):
        total += xs[i].sum().item()  # expect: GB0124 loop
    return xs * total


def run():
    accumulate(torch.randn(3, 2))
