"""A break in a call made inside the frame's own user context manager: the frame is skipped, and the callee,
called eagerly, is compiled as a frame of its own."""
import torch


class Section:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def shout(y):
    print("inside")  # expect: GB0059
    return y + 1


@torch.compile
def f(x):
    y = x * 2
    with Section():
        y = shout(y)
    return y


def run():
    f(torch.randn(3))
