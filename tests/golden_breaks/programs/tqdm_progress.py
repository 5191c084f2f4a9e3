import torch
from tqdm import tqdm


@torch.compile
def run_steps(x):
    bar = tqdm(total=3, disable=True)  # expect: GB0007
    return x + 1


def run():
    run_steps(torch.randn(3))
