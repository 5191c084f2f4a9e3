import numpy as np
import torch
import torch._dynamo

torch._dynamo.config.trace_numpy = False


@torch.compile
def wave(x):
    y = x * 2
    z = np.sin(y)  # expect: GB0293
    return z


def run():
    try:
        wave(torch.randn(3))
    finally:
        torch._dynamo.config.trace_numpy = True
