import torch


@torch.compile
def named(x):
    label = f"shape={tuple(x.shape)}"
    return x + len(label)


def run():
    named(torch.randn(3))
