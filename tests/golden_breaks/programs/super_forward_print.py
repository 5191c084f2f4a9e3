import torch
from torch import nn


class Base(nn.Module):
    def forward(self, x):
        return x + 1


class Child(Base):
    def forward(self, x):
        y = super().forward(x)
        print("child")  # expect: GB0059
        return y * 2


model = torch.compile(Child())


def run():
    model(torch.randn(3))
