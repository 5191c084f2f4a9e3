import functools
import logging

import torch


def get_logger(name=None):
    """A library's own logger factory: what it returns is a logging.Logger."""
    if name is None:
        name = "library"
    return logging.getLogger(name)


@functools.lru_cache(None)
def warning_once(self, *args, **kwargs):
    self.warning(*args, **kwargs)


logging.Logger.warning_once = warning_once  # a method a library adds to every Logger
logger = get_logger(__name__)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 4)

    def check(self, use_cache):
        if use_cache:
            logger.warning_once("use_cache is ignored here")  # expect: GB0291

    def forward(self, x, use_cache=True):
        self.check(use_cache)
        return self.proj(x).relu()


def run():
    block = torch.compile(Block().eval())
    block(torch.randn(2, 4))
