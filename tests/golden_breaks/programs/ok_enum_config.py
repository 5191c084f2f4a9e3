import enum

import torch


class Mode(enum.Enum):
    TRAIN = 1
    EVAL = 2


@torch.compile
def forward(x, mode):
    if mode is Mode.TRAIN:
        return x * 2
    return x


def run():
    forward(torch.randn(3), Mode.TRAIN)
