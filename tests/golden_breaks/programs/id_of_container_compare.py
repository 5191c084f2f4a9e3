import torch


@torch.compile
def ordered(x, y):
    a = [x]
    b = [y]
    if id(a) < id(b):  # expect: GB9316 GB4501
        return x * 2
    return y * 2


@torch.compile
def unset(x):
    cache = {"k": x}
    if id(cache) == 0:  # expect: GB9316 GB4501
        return x * 2
    return x + 1


def run():
    ordered(torch.randn(3), torch.randn(3))
    unset(torch.randn(3))
