import random

import torch


@torch.compile
def f(x):
    y = x * 2
    k = random.randint(1, 3)
    z = y + (k * 2)  # expect: GB0213
    return z.sum()


def run():
    f(torch.randn(4))
