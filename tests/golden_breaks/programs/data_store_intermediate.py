import torch


@torch.compile
def swap(x, y):
    z = x * 2
    z.data = y  # expect: GB0056
    return z


def run():
    swap(torch.randn(3), torch.randn(3))
