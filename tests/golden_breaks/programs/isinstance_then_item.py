import torch


@torch.compile
def to_scalar(x):
    if isinstance(x, torch.Tensor):
        return x.sum().item()  # expect: GB0124
    return x


def run():
    to_scalar(torch.randn(3))
