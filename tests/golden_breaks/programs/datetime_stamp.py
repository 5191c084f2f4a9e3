import datetime

import torch


@torch.compile
def forward(x):
    stamp = datetime.datetime.now()  # expect: GB0156
    return x + 1, stamp


def run():
    forward(torch.randn(3))
