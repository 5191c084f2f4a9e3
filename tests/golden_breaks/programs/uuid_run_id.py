import uuid

import torch


@torch.compile
def forward(x):
    run_id = uuid.uuid4()  # expect: GB0007
    return x * 2, run_id


def run():
    forward(torch.randn(3))
