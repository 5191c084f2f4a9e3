import torch


@torch.compile
def sample(x):
    gen = torch.Generator()  # expect: GB0363
    return x + 1, gen


def run():
    sample(torch.zeros(3))
