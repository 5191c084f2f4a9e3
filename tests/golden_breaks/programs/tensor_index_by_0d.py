import torch


@torch.compile
def f(x, w):
    k = x.argmax()
    return w[k] * 2  # expect: GB0033


def run():
    f(torch.tensor([0.0, 3.0, 1.0]), torch.randn(3, 2))
