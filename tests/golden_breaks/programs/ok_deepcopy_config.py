import copy

import torch

DEFAULTS = {"scale": 2.0, "shift": 1.0}


@torch.compile
def forward(x):
    cfg = copy.deepcopy(DEFAULTS)
    return x * cfg["scale"] + cfg["shift"]


def run():
    forward(torch.randn(3))
