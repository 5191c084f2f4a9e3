"""A loop inside an inlined helper never skips the caller: the caller breaks at its call (no
jump back after it) and the helper, run as a frame of its own, is skipped for its own loop."""
import torch


def noisy(x, n):
    for i in range(n):
        x = x * 2
        print(i)  # expect: GB0059 loop-missed
    return x


@torch.compile
def f(x):
    y = x + 1
    y = noisy(y, 2)
    return y - 1


def run():
    f(torch.ones(3))
