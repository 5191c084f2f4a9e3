import torch


@torch.compile
def safe(x):
    try:
        raise KeyError("missing")
    except KeyError:
        return x + 1


def run():
    safe(torch.randn(3))
