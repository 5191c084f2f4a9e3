import scipy.special
import torch


@torch.compile
def gelu_like(x):
    c = scipy.special.erf(0.5)  # expect: GB0156
    return x * c


def run():
    gelu_like(torch.randn(5))
