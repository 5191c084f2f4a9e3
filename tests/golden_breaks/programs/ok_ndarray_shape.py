"""An ndarray from `Tensor.numpy()` is traced as a tensor: its shape, ndim and math are in the graph; its
dtype, flags, base and tobytes() are not (ndarray_attributes, ndarray_tobytes)."""
import torch


@torch.compile
def scaled(x):
    a = (x * 2).numpy()
    rows = a.shape[0]
    return a.sum() * rows + a.ndim


def run():
    scaled(torch.randn(3))
