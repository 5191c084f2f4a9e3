import torch


@torch.compile
def mixed(x, w):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = x @ w
    return y.float()


def run():
    mixed(torch.randn(2, 4), torch.randn(4, 3))
