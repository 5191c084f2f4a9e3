import threading

import torch

LOCK = threading.Lock()


@torch.compile
def guarded(x):
    with LOCK:  # expect: GB0142
        y = x + 1
    return y


def run():
    guarded(torch.randn(3))
