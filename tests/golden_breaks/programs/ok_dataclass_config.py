from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Config:
    scale: float = 2.0
    use_bias: bool = True


CFG = Config()


@torch.compile
def forward(x):
    y = x * CFG.scale
    if CFG.use_bias:
        y = y + 1
    return y


def run():
    forward(torch.randn(3))
