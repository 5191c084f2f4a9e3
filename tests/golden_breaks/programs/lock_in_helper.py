import threading

import torch

LOCK = threading.Lock()


def bump(x):
    with LOCK:  # expect: GB0142
        return x + 1


@torch.compile
def outer(x):
    y = x * 2
    return bump(y) - 1


def run():
    outer(torch.randn(3))
