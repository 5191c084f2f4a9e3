import torch


@torch.compile
def batched(x):
    torch.Tensor.unsqueeze_(x, 0)  # expect: GB0072
    return x * 2


def run():
    batched(torch.randn(3))
