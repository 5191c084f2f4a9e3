"""A builtin exception built with a keyword argument (`ImportError(msg, name=...)`): Dynamo's ExceptionVariable
takes positional arguments only (GB0273); outside a try the graph before it is compiled, inside one the frame
runs eagerly (ok_raise_caught_helper: positional arguments are traced)."""
import torch


@torch.compile
def require_kernel(x):
    y = x * 2
    if y.dim() == 1:
        raise ImportError("flash_attn is not installed", name="flash_attn")  # expect: GB0273
    return y


@torch.compile
def optional_kernel(x):
    y = x * 2
    try:
        raise ModuleNotFoundError("no fused kernel", name="fused")  # expect: GB0273
    except ImportError:
        pass
    return y + 1


def run():
    try:
        require_kernel(torch.randn(3))
    except ImportError:
        pass
    optional_kernel(torch.randn(3))
