"""logging.getLogger() without a name returns the root logger without comparing names: traced; with a name it
breaks (logger_by_name, local_logger)."""
import logging

import torch


@torch.compile
def traced(x):
    log = logging.getLogger()
    y = x.relu()
    return y + 1, log


def run():
    traced(torch.randn(3))
