"""A small MLP-Mixer image classifier configured by a plain dict."""

from __future__ import annotations

from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F

DEFAULT_CONFIG = {
    "image_size": 16,
    "in_channels": 3,
    "patch_size": 4,
    "hidden_dim": 32,
    "depth": 2,
    "token_mlp_dim": 32,
    "channel_mlp_dim": 64,
    "num_classes": 10,
    "dropout": 0.1,
    "stochastic_depth": 0.0,
}


# token mixing acts on the patch axis of a (B, N, C) tensor: a 1x1 conv treats N as channels
chan_first = partial(nn.Conv1d, kernel_size=1)
chan_last = nn.Linear


class MlpBlock(nn.Module):
    def __init__(self, dim: int, hidden: int, dropout: float, dense=chan_last) -> None:
        super().__init__()
        self.fc1 = dense(dim, hidden)
        self.fc2 = dense(hidden, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.drop(self.fc2(self.drop(F.gelu(self.fc1(x)))))


class MixerLayer(nn.Module):
    def __init__(self, num_patches: int, cfg: dict) -> None:
        super().__init__()
        dim = cfg["hidden_dim"]
        self.norm1 = nn.LayerNorm(dim)
        self.token_mixing = MlpBlock(num_patches, cfg["token_mlp_dim"], cfg["dropout"], dense=chan_first)
        self.norm2 = nn.LayerNorm(dim)
        self.channel_mixing = MlpBlock(dim, cfg["channel_mlp_dim"], cfg["dropout"])
        self.drop_path = cfg.get("stochastic_depth", 0.0)

    def _residual(self, x: torch.Tensor, branch: torch.Tensor) -> torch.Tensor:
        if self.training and self.drop_path > 0:
            keep = torch.rand(x.shape[0], 1, 1, device=x.device) >= self.drop_path
            branch = branch * keep / (1.0 - self.drop_path)
        return x + branch

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (B, num_patches, dim)
        x = self._residual(x, self.token_mixing(self.norm1(x)))
        x = self._residual(x, self.channel_mixing(self.norm2(x)))
        return x


class MlpMixer(nn.Module):
    def __init__(self, config: dict | None = None) -> None:
        super().__init__()
        cfg = {**DEFAULT_CONFIG, **(config or {})}
        self.config = cfg
        assert cfg["image_size"] % cfg["patch_size"] == 0, "image size must be divisible by patch size"
        num_patches = (cfg["image_size"] // cfg["patch_size"]) ** 2
        self.stem = nn.Conv2d(
            cfg["in_channels"], cfg["hidden_dim"], kernel_size=cfg["patch_size"], stride=cfg["patch_size"]
        )
        self.layers = nn.ModuleList([MixerLayer(num_patches, cfg) for _ in range(cfg["depth"])])
        self.norm = nn.LayerNorm(cfg["hidden_dim"])
        self.head = nn.Linear(cfg["hidden_dim"], cfg["num_classes"])
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(module: nn.Module) -> None:
        if isinstance(module, (nn.Linear, nn.Conv1d)):
            nn.init.trunc_normal_(module.weight, std=0.02)
            if module.bias is not None:
                nn.init.zeros_(module.bias)

    def num_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters() if p.requires_grad)

    def forward(self, pixel_values: torch.Tensor) -> torch.Tensor:
        x = self.stem(pixel_values)  # (B, C, H', W')
        x = x.flatten(2).transpose(1, 2)  # (B, N, C)
        for layer in self.layers:
            x = layer(x)
        x = self.norm(x).mean(dim=1)
        return self.head(x)
