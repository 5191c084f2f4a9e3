"""A small denoising network with sinusoidal time embeddings (DDPM-style)."""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class DiffusionConfig:
    channels = 3
    base_width = 16
    time_dim = 32
    groups = 4
    num_timesteps = 50
    beta_start = 1e-4
    beta_end = 0.02

    def __init__(self, **overrides):
        for key, value in overrides.items():
            setattr(self, key, value)


def timestep_embedding(t: torch.Tensor, dim: int, max_period: int = 10000) -> torch.Tensor:
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class ResBlock(nn.Module):
    def __init__(self, channels: int, time_dim: int, groups: int):
        super().__init__()
        self.norm1 = nn.GroupNorm(groups, channels)
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.time_proj = nn.Linear(time_dim, channels)
        self.norm2 = nn.GroupNorm(groups, channels)
        self.dropout = nn.Dropout(0.1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x, temb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.time_proj(temb)[:, :, None, None]
        h = self.conv2(self.dropout(F.silu(self.norm2(h))))
        return x + h


class Denoiser(nn.Module):
    def __init__(self, cfg: DiffusionConfig):
        super().__init__()
        self.time_dim = cfg.time_dim
        self.time_mlp = nn.Sequential(nn.Linear(cfg.time_dim, cfg.time_dim * 2), nn.SiLU(),
                                      nn.Linear(cfg.time_dim * 2, cfg.time_dim))
        self.stem = nn.Conv2d(cfg.channels, cfg.base_width, 3, padding=1)
        self.down = nn.Conv2d(cfg.base_width, cfg.base_width, 4, stride=2, padding=1)
        self.mid = nn.ModuleList([ResBlock(cfg.base_width, cfg.time_dim, cfg.groups) for _ in range(2)])
        self.up = nn.ConvTranspose2d(cfg.base_width, cfg.base_width, 4, stride=2, padding=1)
        self.head = nn.Conv2d(cfg.base_width * 2, cfg.channels, 3, padding=1)

    def forward(self, x, t):
        temb = self.time_mlp(timestep_embedding(t, self.time_dim))
        skip = self.stem(x)
        h = self.down(skip)
        for block in self.mid:
            h = block(h, temb)
        h = self.up(h)
        return self.head(torch.cat([h, skip], dim=1))


class NoiseSchedule:
    def __init__(self, cfg: DiffusionConfig):
        self.num_timesteps = cfg.num_timesteps
        betas = torch.linspace(cfg.beta_start, cfg.beta_end, cfg.num_timesteps)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.sqrt_alphas_cumprod = alphas_cumprod.sqrt()
        self.sqrt_one_minus_alphas_cumprod = (1.0 - alphas_cumprod).sqrt()

    def add_noise(self, x0, noise, t):
        a = self.sqrt_alphas_cumprod[t][:, None, None, None]
        b = self.sqrt_one_minus_alphas_cumprod[t][:, None, None, None]
        return a * x0 + b * noise
