"""A tensor hook registered in traced code with its handle in a local is traced (hook_handle_in_global: stored
in a global, it breaks)."""
import torch


@torch.compile
def scaled(x):
    y = x * 2
    handle = x.register_hook(lambda g: g * 2)
    return y, handle is not None


def run():
    scaled(torch.randn(3, requires_grad=True))
