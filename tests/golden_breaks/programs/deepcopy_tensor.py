import copy

import torch


@torch.compile
def snapshot_of(x):
    y = x * 2
    snapshot = copy.deepcopy(y)  # expect: GB4198
    return snapshot + y


@torch.compile
def input_copy(x):
    kept = copy.deepcopy(x)  # expect: GB4198
    return kept + 1


def run():
    snapshot_of(torch.randn(3))
    input_copy(torch.randn(3))
