import torch


@torch.compile
def checked(x, n):
    y = x * 2
    try:
        assert n > 5, "n too small"  # expect: GB0034
    except AssertionError:
        pass
    return y


def run():
    checked(torch.randn(3), 1)
