import torch


@torch.compile
def pad_to_even(x):
    if x.shape[0] % 2 == 1:
        x = torch.cat([x, x[:1]])
    return x * 2


def run():
    pad_to_even(torch.randn(3))
