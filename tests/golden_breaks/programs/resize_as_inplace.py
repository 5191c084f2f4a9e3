import torch


@torch.compile
def fit_to(x, like):
    z = x * 2
    z.resize_as_(like)  # expect: GB0127
    return z


def run():
    fit_to(torch.randn(4), torch.randn(2, 2))
