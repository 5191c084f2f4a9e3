import torch


@torch.compile
def noise(x):
    y = x * 2
    y.uniform_(**{"from": 0.0, "to": 1.0})  # expect: GB0110
    return y


def run():
    noise(torch.randn(3))
