import torch


@torch.compile
def set_real(x, z):
    y = x * 2
    y.real = z  # expect: GB0058
    return y


@torch.compile
def set_imag(x, z):
    y = x * 2
    y.imag = z  # expect: GB0058
    return y


def run():
    set_real(torch.randn(3, dtype=torch.complex64), torch.randn(3))
    set_imag(torch.randn(3, dtype=torch.complex64), torch.randn(3))
