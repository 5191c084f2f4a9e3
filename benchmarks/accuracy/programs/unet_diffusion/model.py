"""A small DDPM-style UNet with timestep conditioning."""

from __future__ import annotations

import math
from typing import Optional, Sequence

import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(t: torch.Tensor, dim: int, max_period: int = 10000) -> torch.Tensor:
    """Sinusoidal embeddings as in 'Attention Is All You Need' / DDPM."""
    half = dim // 2
    freqs = torch.exp(
        -math.log(max_period) * torch.arange(half, dtype=torch.float32, device=t.device) / half
    )
    args = t[:, None].float() * freqs[None]
    emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    if dim % 2:
        emb = torch.cat([emb, torch.zeros_like(emb[:, :1])], dim=-1)
    return emb


class ResBlock(nn.Module):
    def __init__(self, in_ch: int, out_ch: int, time_dim: int, num_groups: int = 8,
                 dropout: float = 0.0):
        super().__init__()
        self.norm1 = nn.GroupNorm(num_groups, in_ch)
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, padding=1)
        self.time_proj = nn.Linear(time_dim, out_ch)
        self.norm2 = nn.GroupNorm(num_groups, out_ch)
        self.dropout = nn.Dropout(dropout)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1)
        self.skip = nn.Conv2d(in_ch, out_ch, 1) if in_ch != out_ch else nn.Identity()

    def forward(self, x: torch.Tensor, temb: torch.Tensor) -> torch.Tensor:
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.time_proj(F.silu(temb))[:, :, None, None]
        h = self.conv2(self.dropout(F.silu(self.norm2(h))))
        return h + self.skip(x)


class Downsample(nn.Module):
    def __init__(self, ch: int):
        super().__init__()
        self.conv = nn.Conv2d(ch, ch, 3, stride=2, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


class Upsample(nn.Module):
    def __init__(self, ch: int):
        super().__init__()
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(F.interpolate(x, scale_factor=2.0, mode="nearest"))


class UNet(nn.Module):
    def __init__(self, in_ch: int = 3, base_ch: int = 32, ch_mult: Sequence[int] = (1, 2),
                 num_res_blocks: int = 1, num_groups: int = 8, dropout: float = 0.0,
                 num_classes: Optional[int] = None):
        super().__init__()
        self.base_ch = base_ch
        time_dim = base_ch * 4
        self.time_mlp = nn.Sequential(
            nn.Linear(base_ch, time_dim), nn.SiLU(), nn.Linear(time_dim, time_dim)
        )
        # class conditioning; the extra index is the "null" label for classifier-free guidance
        self.num_classes = num_classes
        if num_classes is not None:
            self.label_emb = nn.Embedding(num_classes + 1, time_dim)

        self.stem = nn.Conv2d(in_ch, base_ch, 3, padding=1)
        self.down = nn.ModuleList()
        chans = [base_ch]
        ch = base_ch
        for level, mult in enumerate(ch_mult):
            for _ in range(num_res_blocks):
                self.down.append(ResBlock(ch, base_ch * mult, time_dim, num_groups, dropout))
                ch = base_ch * mult
                chans.append(ch)
            if level != len(ch_mult) - 1:
                self.down.append(Downsample(ch))
                chans.append(ch)

        self.mid = nn.ModuleList([
            ResBlock(ch, ch, time_dim, num_groups, dropout),
            ResBlock(ch, ch, time_dim, num_groups, dropout),
        ])

        self.up = nn.ModuleList()
        for level, mult in reversed(list(enumerate(ch_mult))):
            for _ in range(num_res_blocks + 1):
                self.up.append(ResBlock(ch + chans.pop(), base_ch * mult, time_dim, num_groups, dropout))
                ch = base_ch * mult
            if level != 0:
                self.up.append(Upsample(ch))

        self.out_norm = nn.GroupNorm(num_groups, ch)
        self.out_conv = nn.Conv2d(ch, in_ch, 3, padding=1)

    def forward(self, x: torch.Tensor, t, y: Optional[torch.Tensor] = None) -> torch.Tensor:
        if not torch.is_tensor(t):
            t = torch.full((x.shape[0],), t, dtype=torch.long, device=x.device)
        temb = self.time_mlp(timestep_embedding(t, self.base_ch))
        if y is not None and self.num_classes is not None:
            temb = temb + self.label_emb(y)

        h = self.stem(x)
        skips = [h]
        for layer in self.down:
            h = layer(h, temb) if isinstance(layer, ResBlock) else layer(h)
            skips.append(h)
        for block in self.mid:
            h = block(h, temb)
        for layer in self.up:
            if isinstance(layer, ResBlock):
                h = layer(torch.cat([h, skips.pop()], dim=1), temb)
            else:
                h = layer(h)
        return self.out_conv(F.silu(self.out_norm(h)))
