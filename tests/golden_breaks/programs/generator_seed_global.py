import torch

GEN = torch.Generator()


@torch.compile
def reseeded(x):
    y = x * 2
    GEN.manual_seed(0)  # expect: GB7650
    return y + 1


def run():
    reseeded(torch.randn(3))
