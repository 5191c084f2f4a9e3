import torch


@torch.compile
def need(x, scale=None):
    if scale is None:
        raise ValueError("scale is required")
    return x * scale


def run():
    need(torch.randn(3), 2.0)
