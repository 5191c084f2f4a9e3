import contextlib

import torch


@contextlib.contextmanager
def scoped():
    yield 2


@torch.compile
def forward(x):
    with scoped() as k:
        y = x * k
    return y


def run():
    forward(torch.randn(3))
