import torch


def check(x):
    raise ValueError("bad")  # expect: GB0088


@torch.compile
def main(x):
    y = x + 1
    check(y)
    return y


def run():
    try:
        main(torch.randn(3))
    except ValueError:
        pass
