import torch


@torch.compile
def share(x):
    x.share_memory_()  # expect: GB0117
    return x + 1


def run():
    share(torch.randn(3))
