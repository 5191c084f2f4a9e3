import torch
import torch._dynamo


@torch._dynamo.disable
def host_side(x):
    return x.numpy().sum()


@torch.compile
def forward(x):
    s = host_side(x)  # expect: GB0098
    return x * 2


def run():
    forward(torch.randn(6))
