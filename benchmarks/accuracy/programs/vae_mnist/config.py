"""Hyperparameters for the convolutional VAE."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List


@dataclass
class VAEConfig:
    image_size: int = 28
    in_channels: int = 1
    channels: List[int] = field(default_factory=lambda: [16, 32])
    latent_dim: int = 8
    kernel_size: int = 3
    use_batchnorm: bool = True
    # loss / schedule
    beta: float = 1.0
    kl_warmup_steps: int = 4
    recon_loss: str = "bce"
    # optimisation
    lr: float = 1e-3
    batch_size: int = 8
    max_steps: int = 8
    log_every: int = 2
    seed: int = 0

    @property
    def bottleneck_size(self) -> int:
        """Spatial size after all stride-2 convolutions."""
        size = self.image_size
        for _ in self.channels:
            size = (size + 1) // 2
        return size


def get_config(**overrides) -> VAEConfig:
    cfg = VAEConfig()
    for key, value in overrides.items():
        if not hasattr(cfg, key):
            raise KeyError(f"unknown config key: {key}")
        setattr(cfg, key, value)
    return cfg
