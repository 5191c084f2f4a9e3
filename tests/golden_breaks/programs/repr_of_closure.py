import torch


@torch.compile
def described(x):
    y = x * 2

    def scale(z):
        return z * y

    text = repr(scale)  # expect: GB1584
    return y + 1, text


def run():
    described(torch.randn(3))
