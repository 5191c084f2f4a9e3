"""A builtin exception made in traced code, its `__cause__` set and then raised and caught: traced
(exception_attribute_store: another attribute breaks)."""
import torch


@torch.compile
def checked(x):
    y = x * 2
    try:
        err = ValueError("negative input")
        err.__cause__ = KeyError("x")
        raise err
    except ValueError:
        y = y - 1
    return y + 1


def run():
    checked(torch.randn(3))
