import torch


def make(scale):
    @torch.compile
    def f(x):
        return x * scale

    return f


f = make(3)


def run():
    f(torch.randn(3))
