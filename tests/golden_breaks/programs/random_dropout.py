import random

import torch


@torch.compile
def maybe_drop(x):
    p = random.random()  # expect: GB0007
    return x * p


def run():
    maybe_drop(torch.randn(5))
