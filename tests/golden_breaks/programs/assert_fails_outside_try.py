"""An `assert` that fails while tracing, outside a try: with a literal message Dynamo breaks on the jump and the
resumed frame raises; with an f-string message it raises AssertionError itself, an observed exception."""
import torch


@torch.compile
def batched(x):
    y = x * 2
    assert y.dim() == 3, "expected a batch"  # expect: GB0170
    return y + 1


@torch.compile
def ranked(x):
    y = x * 2
    assert y.dim() == 3, f"expected rank 3, got {y.dim()}"  # expect: GB0088
    return y + 1


def run():
    for fn in (batched, ranked):
        try:
            fn(torch.randn(3))
        except AssertionError:
            pass
