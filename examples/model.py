"""A small classifier as ML code is usually written: a config dataclass, blocks of
torch.nn layers in a ModuleList, and a Python counter on each block."""

from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class ModelConfig:
    dim: int = 32
    depth: int = 2
    dropout: float = 0.1
    eps: float = 1e-5
    classes: int = 4


class Block(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.norm = nn.LayerNorm(cfg.dim, eps=cfg.eps)
        self.ff = nn.Linear(cfg.dim, cfg.dim)
        self.drop = nn.Dropout(cfg.dropout)
        self.calls = 0

    def forward(self, x):
        self.calls += 1  # a Python int on a module: static, so every call recompiles
        return x + self.drop(torch.relu(self.ff(self.norm(x))))


class Classifier(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.depth)])
        self.head = nn.Linear(cfg.dim, cfg.classes)
        self.temperature = 2.0

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x) / self.temperature
