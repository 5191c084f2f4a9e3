import torch


@torch.compile
def in_range(x):
    ok = (x.min() > -1) and (x.max() < 1)  # expect: GB0170
    return x * 2, ok


def run():
    in_range(torch.rand(4) * 0.5)
