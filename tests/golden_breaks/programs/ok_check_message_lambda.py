"""A torch._check message defined in the compiled region (a NestedUserFunctionVariable) is traced; one
defined outside, or a string, breaks (check_message_outside)."""
import torch


@torch.compile
def checked(x, n):
    y = x * 2
    torch._check(y.shape[0] > 0, lambda: f"batch of {n} must not be empty")
    return y + 1


def run():
    checked(torch.randn(3), 3)
