import os

import torch


@torch.compile
def seeded(x):
    pid = os.getpid()  # expect: GB0007
    return x + pid % 7


def run():
    seeded(torch.randn(3))
