import random

import torch


@torch.compile
def noisy(x):
    return x + random.gauss(0.0, 1.0)  # expect: GB0007


def run():
    noisy(torch.randn(5))
