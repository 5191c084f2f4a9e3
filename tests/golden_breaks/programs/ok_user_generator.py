import torch


def pairs(x):
    for i in range(2):
        yield x * i


@torch.compile
def forward(x):
    out = x
    for y in pairs(x):
        out = out + y
    return out


def run():
    forward(torch.randn(3))
