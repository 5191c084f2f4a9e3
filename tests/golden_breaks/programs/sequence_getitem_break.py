import collections.abc

import torch


class View(collections.abc.Sequence):
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        print("get", i)  # expect: GB0059
        return self.items[i]


VIEW = View([1.0, 2.0])


@torch.compile
def f(x):
    y = x + 1
    for v in VIEW:  # GET_ITER runs __len__ and __getitem__: a break there skips the frame
        y = y * v
    return y


def run():
    f(torch.randn(3))
