"""A tensor hook registered in traced code, its handle kept in a module global to remove it later: Dynamo
refuses to store a RemovableHandle in a global (GB0100) and runs the frame eagerly (ok_hook_handle_local: kept
in a local, it is traced)."""
import torch

grad_handle = None


@torch.compile
def scaled(x):
    global grad_handle
    y = x * 2
    grad_handle = x.register_hook(lambda g: g * 2)  # expect: GB0100
    return y


def run():
    scaled(torch.randn(3, requires_grad=True))
