"""A loop that would resume, over an iterator Dynamo cannot hand to the resume function:
an nn.ModuleList (Reconstruction failure) and `enumerate` over a list (a generator it cannot
rebuild) skip the frame; `zip` over lists is rebuilt but its resume frame cannot call next()."""
import torch
import torch.nn as nn


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
            if x.sum() > 1e9:  # expect: GB0170 GB0092
                return x
        return x


@torch.compile
def indexed(x, ws):
    for i, w in enumerate(ws):
        x = x * w + i
        if x.sum() > 1e9:  # expect: GB0170 GB8335
            return x
    return x


@torch.compile
def paired(x, ws, bs):
    for w, b in zip(ws, bs):
        x = x * w + b
        if x.sum() > 1e9:  # expect: GB0170 GB4347
            return x
    return x


def run():
    torch.compile(Stack())(torch.ones(2, 4))
    indexed(torch.ones(3), [1.0, 2.0])
    paired(torch.ones(3), [1.0, 2.0], [0.0, 1.0])
