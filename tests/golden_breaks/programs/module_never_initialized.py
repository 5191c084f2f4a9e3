"""An nn.Module subclass whose `__init__` forgets `super().__init__()` and stores nothing: its `__dict__` is
empty, and Dynamo refuses the module where the frame first reads it (GB0119): the graph before it is compiled,
the rest of the frame runs eagerly, where `forward` called directly works (ok_super_forward: an initialized
module is traced)."""
import torch
from torch import nn


class Doubler(nn.Module):
    def __init__(self):
        pass

    def forward(self, x):
        return x * 2


head = Doubler()


@torch.compile
def scaled(x):
    y = x + 1
    return head.forward(y)  # expect: GB0119


def run():
    scaled(torch.randn(3))
