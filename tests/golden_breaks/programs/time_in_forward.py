import time

import torch


@torch.compile
def timed(x):
    start = time.time()  # expect: GB0007
    y = x.sin() + x.cos()
    return y, start


def run():
    timed(torch.randn(5))
