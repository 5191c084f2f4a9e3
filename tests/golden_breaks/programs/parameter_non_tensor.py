import torch


@torch.compile
def f(x):
    y = x + 1
    p = torch.nn.Parameter(None)  # expect: GB0226
    return y, p


def run():
    f(torch.ones(2))
