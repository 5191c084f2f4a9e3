"""An attribute set on a builtin exception made in traced code (`err.code = ...`): Dynamo models only
`__cause__`, `__context__`, `__suppress_context__` and `__traceback__` there and breaks on any other (GB0135),
resuming after it (ok_exception_cause: `__cause__` is traced)."""
import torch


@torch.compile
def checked(x):
    y = x * 2
    err = ValueError("negative input")
    err.code = 3  # expect: GB0135
    return y + 1, err


def run():
    checked(torch.randn(3))
