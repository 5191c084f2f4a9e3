import numpy as np
import torch
import torch._dynamo

TABLE = np.arange(3.0)
torch._dynamo.config.trace_numpy = False


@torch.compile
def lookup(x):
    t = torch.from_numpy(TABLE)  # expect: GB0231
    return x + t


def run():
    try:
        lookup(torch.randn(3))
    finally:
        torch._dynamo.config.trace_numpy = True
