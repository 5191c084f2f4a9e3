import torch
import torch._dynamo


@torch.compile
def eager_only(x):
    torch._dynamo.skip_frame()  # expect: GB4297
    return x + 1


def run():
    eager_only(torch.randn(3))
