"""Residual MLP for tabular regression."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn


@dataclass(frozen=True)
class MLPConfig:
    in_features: int = 12
    hidden: int = 64
    blocks: int = 3
    dropout: float = 0.05
    activation: str = "gelu"
    norm_eps: float = 1e-5
    output_scale: float = 10.0


class ScaleNorm(nn.Module):
    """Norm by a learned scalar over the feature dimension."""

    def __init__(self, dim: int, eps: float = 1e-5):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(dim ** 0.5))
        self.eps = eps

    def forward(self, x):
        return x * self.scale / x.norm(dim=-1, keepdim=True).clamp(min=self.eps)


class ResidualBlock(nn.Module):
    def __init__(self, cfg: MLPConfig):
        super().__init__()
        self.norm = ScaleNorm(cfg.hidden, cfg.norm_eps)
        self.fc1 = nn.Linear(cfg.hidden, cfg.hidden * 2)
        self.act = nn.GELU() if cfg.activation == "gelu" else nn.ReLU()
        self.fc2 = nn.Linear(cfg.hidden * 2, cfg.hidden)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x):
        return x + self.drop(self.fc2(self.act(self.fc1(self.norm(x)))))


class Regressor(nn.Module):
    def __init__(self, cfg: MLPConfig):
        super().__init__()
        self.input = nn.Linear(cfg.in_features, cfg.hidden)
        self.blocks = nn.ModuleList([ResidualBlock(cfg) for _ in range(cfg.blocks)])
        self.final_norm = nn.LayerNorm(cfg.hidden)
        self.out = nn.Linear(cfg.hidden, 1)
        self.output_scale = cfg.output_scale
        self.forward_calls = 0

    def forward(self, features):
        self.forward_calls += 1
        x = self.input(features)
        for block in self.blocks:
            x = block(x)
        return self.out(self.final_norm(x)).squeeze(-1) * self.output_scale
