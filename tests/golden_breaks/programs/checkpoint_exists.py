import os

import torch

CKPT = "/nonexistent/vtlint/checkpoint.pt"


@torch.compile
def forward(x):
    if os.path.exists(CKPT):  # expect: GB0007
        x = x * 0
    return x + 1


def run():
    forward(torch.randn(3))
