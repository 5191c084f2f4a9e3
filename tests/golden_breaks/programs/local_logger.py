import logging

import torch


@torch.compile
def noisy(x):
    log = logging.getLogger("noisy")  # expect: GB6215
    y = x.relu()
    log.warning("relu done")  # expect: GB0291
    return y + 1


def run():
    noisy(torch.randn(3))
