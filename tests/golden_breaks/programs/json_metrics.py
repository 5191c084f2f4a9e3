import json

import torch


@torch.compile
def step(x):
    y = x.relu()
    record = json.dumps({"step": 1, "phase": "train"})  # expect: GB0156
    return y * 2, record


def run():
    step(torch.randn(4))
