"""numpy functions written in Python that torch._numpy has (`np.cumsum`, `np.clip`, `np.linspace`): Dynamo maps
them to torch ops, nothing breaks (numpy_function_not_in_torch: one it lacks breaks)."""
import numpy as np
import torch


@torch.compile
def scaled(x):
    a = x.numpy()
    b = np.clip(np.cumsum(a), 0.0, 1.0) * np.linspace(0.0, 1.0, 3)
    return torch.from_numpy(b)


def run():
    scaled(torch.randn(3, dtype=torch.float64))
