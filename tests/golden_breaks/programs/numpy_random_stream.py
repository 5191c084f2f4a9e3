import numpy as np
import torch
import torch._dynamo

torch._dynamo.config.use_numpy_random_stream = True


@torch.compile
def jitter(x):
    y = x * 2
    noise = np.random.rand(3)  # expect: GB0298
    return y + torch.from_numpy(noise)


def run():
    try:
        jitter(torch.randn(3, dtype=torch.float64))
    finally:
        torch._dynamo.config.use_numpy_random_stream = False
