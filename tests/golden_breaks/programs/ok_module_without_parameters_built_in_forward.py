"""A module without parameters built inside the compiled forward (an activation, a dropout): Dynamo inlines its
`__init__` to the end, and the frame is one graph."""
import torch
from torch import nn


class Activation(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = nn.GELU()
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.drop(self.act(x))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        act = Activation()
        return act(self.proj(x))


def run():
    net = torch.compile(Net().eval())
    net(torch.randn(2, 4))
