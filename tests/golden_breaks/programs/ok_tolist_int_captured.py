import torch

torch._dynamo.config.capture_scalar_outputs = True


@torch.compile
def f(x):
    y = (x * 2).long()
    sizes = y.tolist()
    return x + sizes[0]


def run():
    try:
        f(torch.tensor([1.0, 2.0]))
    finally:
        torch._dynamo.config.capture_scalar_outputs = False
