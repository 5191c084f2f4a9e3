import torch
import torch._dynamo

torch._dynamo.config.capture_scalar_outputs = True


@torch.compile
def scaled(x):
    s = x.sum().item()
    return x * s


def run():
    try:
        scaled(torch.randn(3))
    finally:
        torch._dynamo.config.capture_scalar_outputs = False
