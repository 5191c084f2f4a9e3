import torch


def check(x):
    raise RuntimeError("fallback")


@torch.compile
def guarded(x):
    try:
        check(x)
    except RuntimeError:
        x = x * 2
    return x + 1


def run():
    guarded(torch.randn(3))
