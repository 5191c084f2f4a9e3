"""An in-place view op on a tensor made in the frame is traced; on an input it breaks (inplace_view_input)."""
import torch


@torch.compile
def batched(x):
    y = x * 2
    torch.Tensor.unsqueeze_(y, 0)
    return y + 1


def run():
    batched(torch.randn(3))
