import torch


@torch.compile
def checked(x):
    y = x * 2
    torch._check(y.shape[0] > 0, lambda: f"bad batch {y}")  # expect: GB9158
    return y + 1


def run():
    checked(torch.randn(3))
