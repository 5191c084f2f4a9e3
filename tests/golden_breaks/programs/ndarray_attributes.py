import torch


@torch.compile
def with_dtype(x):
    a = (x * 2).numpy()
    kind = a.dtype  # expect: GB0157
    return a + 1, kind


@torch.compile
def with_flags(x):
    a = (x * 2).numpy()
    owns = a.flags  # expect: GB0157
    return a + 1, owns


def run():
    with_dtype(torch.randn(3))
    with_flags(torch.randn(3))
