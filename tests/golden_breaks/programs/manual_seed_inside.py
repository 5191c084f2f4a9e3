import torch


@torch.compile
def sample(x):
    torch.manual_seed(0)  # expect: GB0007
    return x + torch.randn(3)


def run():
    sample(torch.zeros(3))
