import torch


@torch.compile
def view_of(x, y):
    z = x * 2
    z.set_(y.untyped_storage(), 0, (2,))  # expect: GB0128
    return z


def run():
    view_of(torch.randn(4), torch.randn(4))
