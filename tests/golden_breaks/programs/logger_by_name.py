import logging

import torch


@torch.compile
def traced(x):
    y = x.relu()
    log = logging.getLogger(__name__)  # expect: GB6215
    return y + 1, log


def run():
    traced(torch.randn(3))
