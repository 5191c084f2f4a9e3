import numpy as np
import torch


@torch.compile
def np_sin(x):
    return torch.from_numpy(np.sin(x.numpy()))


def run():
    np_sin(torch.randn(3))
