import torch


@torch.compile
def f(x):
    y = x * 2
    torch._dynamo.step_unsupported()  # expect: GB0275
    return y + 1


def run():
    f(torch.randn(3))
