import time

import torch


@torch.compile
def profiled(x):
    y = x * 2
    t0 = time.perf_counter()  # expect: GB0007
    return y + 1, t0


def run():
    profiled(torch.randn(5))
