import random

import torch


@torch.compile
def shift(x):
    k = random.randint(0, 3)
    return x + k * 2  # expect: GB0213


def run():
    shift(torch.randn(4))
