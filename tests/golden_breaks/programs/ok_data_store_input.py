"""`.data` of a graph input set to a tensor of the same dtype is traced; one made in the frame, or one
set to another dtype, breaks (data_store_intermediate, data_store_dtype)."""
import torch


@torch.compile
def refill(x, y):
    x.data = y * 2
    return x + 1


def run():
    refill(torch.randn(3), torch.randn(3))
