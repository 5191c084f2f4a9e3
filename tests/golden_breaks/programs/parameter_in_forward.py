import torch
from torch import nn


@torch.compile
def make_bias(x):
    bias = nn.Parameter(torch.zeros(4))  # expect: GB0264
    return x + bias


def run():
    make_bias(torch.randn(4))
