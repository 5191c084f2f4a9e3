import torch


@torch.compile
def f(x, w):
    p = torch.nn.Parameter(w)
    return x * p


def run():
    f(torch.ones(2), torch.ones(2))
