import torch


@torch.compile
def checked(x):
    y = x + 1
    raise ValueError("bad input")  # expect: GB0088


def run():
    try:
        checked(torch.randn(3))
    except ValueError:
        pass
