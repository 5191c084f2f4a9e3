"""A small vision transformer."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
import torch.nn as nn


@dataclass
class ViTConfig:
    image_size: int = 32
    patch_size: int = 8
    channels: int = 3
    dim: int = 64
    depth: int = 2
    heads: int = 4
    mlp_ratio: float = 2.0
    num_classes: int = 10
    dropout: float = 0.0
    pool: str = "cls"
    class_names: list[str] = field(default_factory=lambda: [f"class_{i}" for i in range(10)])

    @property
    def num_patches(self) -> int:
        return (self.image_size // self.patch_size) ** 2


class PatchEmbed(nn.Module):
    def __init__(self, cfg: ViTConfig):
        super().__init__()
        self.proj = nn.Conv2d(cfg.channels, cfg.dim, kernel_size=cfg.patch_size, stride=cfg.patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, cfg.dim))
        self.pos_embed = nn.Parameter(torch.randn(1, cfg.num_patches + 1, cfg.dim) * 0.02)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        x = self.proj(images).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        return torch.cat([cls, x], dim=1) + self.pos_embed


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int, dropout: float):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.proj = nn.Linear(dim, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, d = x.shape
        qkv = self.to_qkv(x).reshape(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q @ k.transpose(-2, -1) * self.scale).softmax(dim=-1)
        out = (self.drop(attn) @ v).transpose(1, 2).reshape(b, n, d)
        return self.proj(out)


class TransformerBlock(nn.Module):
    def __init__(self, cfg: ViTConfig):
        super().__init__()
        hidden = int(cfg.dim * cfg.mlp_ratio)
        self.norm1 = nn.LayerNorm(cfg.dim, eps=1e-6)
        self.attn = Attention(cfg.dim, cfg.heads, cfg.dropout)
        self.norm2 = nn.LayerNorm(cfg.dim, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(cfg.dim, hidden), nn.GELU(), nn.Dropout(cfg.dropout),
                                 nn.Linear(hidden, cfg.dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class VisionTransformer(nn.Module):
    def __init__(self, cfg: ViTConfig):
        super().__init__()
        self.cfg = cfg
        self.patch_embed = PatchEmbed(cfg)
        self.blocks = nn.ModuleList([TransformerBlock(cfg) for _ in range(cfg.depth)])
        self.norm = nn.LayerNorm(cfg.dim, eps=1e-6)
        self.head = nn.Linear(cfg.dim, cfg.num_classes)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        x = self.patch_embed(images)
        for blk in self.blocks:
            x = blk(x)
        x = self.norm(x)
        x = x[:, 0] if self.cfg.pool == "cls" else x[:, 1:].mean(dim=1)
        return self.head(x)
