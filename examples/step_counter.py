"""An nn.Module that counts its calls: int attributes of a module stay static,
so `self.step += 1` in forward recompiles on every call."""

import torch
from torch import nn


class StepCounter(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4)
        self.step = 0

    def forward(self, x):
        self.step += 1
        return self.linear(x) * self.step


def main():
    model = torch.compile(StepCounter())
    x = torch.randn(2, 4)
    for _ in range(3):
        model(x)


if __name__ == "__main__":
    main()
