import torch


@torch.compile
def sign_flip(x):
    y = x if x.sum() > 0 else -x  # expect: GB0170
    return y * 2


def run():
    sign_flip(torch.randn(4))
