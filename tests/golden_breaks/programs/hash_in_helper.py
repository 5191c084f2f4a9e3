import torch


def bucket(t):
    return hash(t) % 4  # expect: GB0088


@torch.compile
def route(x):
    y = x + 1
    return y * bucket(y)


def run():
    route(torch.randn(3))
