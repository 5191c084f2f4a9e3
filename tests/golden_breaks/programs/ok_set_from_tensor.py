"""`Tensor.set_(source)` of one tensor is aten.set_.source_Tensor, traced; only the overloads with a
storage offset and sizes break (set_storage_offset)."""
import torch


@torch.compile
def alias(x, y):
    z = x * 2
    z.set_(y)
    return z + 1


def run():
    alias(torch.randn(4), torch.randn(4))
