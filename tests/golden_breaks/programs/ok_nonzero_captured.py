import torch

torch._dynamo.config.capture_dynamic_output_shape_ops = True


@torch.compile
def f(x):
    y = x * 2
    idx = torch.nonzero(y)
    return idx.sum()


def run():
    try:
        f(torch.tensor([0.0, 1.0, 2.0]))
    finally:
        torch._dynamo.config.capture_dynamic_output_shape_ops = False
