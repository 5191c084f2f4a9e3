"""A module of the project's built by a helper the compiled forward calls: Dynamo inlines the helper and each
`__init__`, and breaks where the innermost one of the project's makes a torch.nn layer (GB0264). The constructor
then runs eagerly, and each `__init__` of the project's is compiled as a frame of its own whose `self` is not
initialized yet: Dynamo refuses it where the frame first reads it (GB0119), compiling nothing there."""
import torch
from torch import nn


class Head(nn.Module):
    def __init__(self, n):
        super().__init__()  # expect: GB0119
        self.n = n
        self.lin = nn.Linear(n, n)  # expect: GB0264

    def forward(self, x):
        return self.lin(x)


class Wrapper(nn.Module):
    def __init__(self, n):
        self.size = n  # expect: GB0119
        super().__init__()
        self.head = Head(n)

    def forward(self, x):
        return self.head(x)


def build(n):
    return Wrapper(n)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)

    def forward(self, x):
        y = self.proj(x)
        head = build(3)
        return head(y) + 1


def run():
    net = torch.compile(Net().eval())
    net(torch.ones(2, 3))
    net(torch.ones(2, 3))
