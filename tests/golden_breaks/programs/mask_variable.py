import torch


@torch.compile
def clip_negatives(x):
    mask = x < 0
    kept = x[mask]  # expect: GB0036
    return kept.abs().sum()


def run():
    clip_negatives(torch.randn(8))
