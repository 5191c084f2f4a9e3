from dataclasses import dataclass

import torch


@dataclass
class Config:
    scale: float = 2.0


CFG = Config()


@torch.compile
def forward(x):
    print(CFG)  # expect: GB0059
    return x * CFG.scale


def run():
    forward(torch.randn(3))
