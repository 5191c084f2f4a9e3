"""np.random.rand with sizes in traced code makes an ndarray Dynamo traces as a tensor (torch._numpy.random):
no break. Bare, `np.random.rand()` is a Python float read from a 0-d tensor (GB0033), as trace_rules' build
measures it; with config.use_numpy_random_stream it breaks (numpy_random_stream)."""
import numpy as np
import torch


@torch.compile
def jitter(x):
    y = x * 2
    noise = np.random.rand(3)
    return y + torch.from_numpy(noise)


def run():
    jitter(torch.randn(3, dtype=torch.float64))
