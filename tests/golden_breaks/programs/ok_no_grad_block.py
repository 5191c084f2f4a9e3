import torch


@torch.compile
def ema(avg, x):
    with torch.no_grad():
        avg = avg * 0.9 + x * 0.1
    return avg


def run():
    ema(torch.zeros(3), torch.randn(3))
