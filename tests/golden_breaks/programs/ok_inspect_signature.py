import inspect

import torch


def activation(x, inplace=False):
    return x.relu()


@torch.compile
def forward(x):
    params = inspect.signature(activation).parameters
    return activation(x) * len(params)


def run():
    forward(torch.randn(3))
