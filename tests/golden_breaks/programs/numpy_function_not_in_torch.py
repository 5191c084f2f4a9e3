"""numpy functions torch._numpy has no counterpart for (`np.isin`, `np.digitize`, `np.random.poisson`), called in
traced code: Dynamo's NumpyVariable cannot map them to torch ops (GB0294) and resumes after each
(ok_numpy_on_tensors: functions torch._numpy has are traced)."""
import numpy as np
import torch


@torch.compile
def flagged(x):
    y = x * 2
    mask = np.isin(y.numpy(), [1.0, 2.0])  # expect: GB0294
    return y + 1, mask


@torch.compile
def bucketed(x):
    a = x.numpy()
    b = np.digitize(a, [0.0, 0.5])  # expect: GB0294
    return torch.from_numpy(b) + 1


@torch.compile
def noisy(x):
    y = x * 2
    counts = np.random.poisson(3.0, size=3)  # expect: GB0294
    return y + torch.from_numpy(counts)


def run():
    flagged(torch.randn(3))
    bucketed(torch.randn(3))
    noisy(torch.randn(3))
