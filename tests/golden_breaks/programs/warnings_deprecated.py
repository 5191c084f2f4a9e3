import warnings

import torch


@torch.compile
def old_api(x):
    warnings.warn("old_api is deprecated")  # expect: GB0007
    return x + 1


def run():
    old_api(torch.randn(3))
