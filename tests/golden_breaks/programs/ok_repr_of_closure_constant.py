"""repr() of a function made in the frame that closes over Python constants is traced; one that closes over a
tensor breaks (repr_of_closure)."""
import torch


@torch.compile
def described(x, n):
    y = x * 2

    def scale(z):
        return z * n

    text = repr(scale)
    return y + 1, text


def run():
    described(torch.randn(3), 3)
