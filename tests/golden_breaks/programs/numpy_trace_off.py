import torch
import torch._dynamo

torch._dynamo.config.trace_numpy = False


@torch.compile
def host_stats(x):
    arr = x.numpy()  # expect: GB0105
    return x + 1


def run():
    try:
        host_stats(torch.randn(3))
    finally:
        torch._dynamo.config.trace_numpy = True
