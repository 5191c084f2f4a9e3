"""A break inside the block of a user context manager (a GenericContextWrappingVariable: a class with
__enter__/__exit__, or a @contextmanager generator) cannot be resumed: the frame runs eagerly (0 graphs). A
torch context manager resumes (break_in_profiler_block)."""
import contextlib

import torch


class Section:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@contextlib.contextmanager
def section():
    yield


@torch.compile
def in_class_block(x):
    y = x * 2
    with Section():
        print("inside")  # expect: GB0059
        y = y + 1
    return y


@torch.compile
def in_generator_block(x):
    y = x * 2
    with section():
        print("inside")  # expect: GB0059
        y = y + 1
    return y


def run():
    in_class_block(torch.randn(3))
    in_generator_block(torch.randn(3))
