"""A user context manager's block in an inlined helper: the caller breaks at the call and resumes after it;
the helper, run as a frame of its own, is skipped for the break inside its `with`."""
import torch


class Section:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def helper(y):
    with Section():
        print("inside")  # expect: GB0059
        y = y + 1
    return y


@torch.compile
def f(x):
    y = x * 2
    return helper(y) * 3


def run():
    f(torch.randn(3))
