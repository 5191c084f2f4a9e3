import time

import torch


def stamp(x):
    t = time.time()  # expect: GB0007
    return x + t


@torch.compile
def forward(x):
    y = x * 2
    y = stamp(y)
    return y + 1


def run():
    forward(torch.randn(3))
