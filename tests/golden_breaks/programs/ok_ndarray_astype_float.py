"""`ndarray.astype` to a numeric dtype is torch._numpy's, traced (ndarray_astype_object: to `object`, a break)."""
import numpy as np
import torch


@torch.compile
def halved(x):
    a = x.numpy()
    b = a.astype(np.float32) / 2
    return torch.from_numpy(b)


def run():
    halved(torch.randn(3, dtype=torch.float64))
