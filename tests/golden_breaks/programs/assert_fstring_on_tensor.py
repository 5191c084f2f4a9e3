"""An `assert` on a tensor with an f-string message is a plain jump on the tensor, not torch._assert_async: a
literal message is rewritten (ok_assert_tensor), this one is data-dependent branching."""
import torch


@torch.compile
def normalized(x):
    y = x / x.norm()
    assert y.abs().sum() >= 0, f"negative norm for a tensor of shape {y.shape}"  # expect: GB0170
    return y + 1


def run():
    normalized(torch.randn(3))
