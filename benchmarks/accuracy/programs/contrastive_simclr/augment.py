"""Tensor-only SimCLR augmentations.

Everything here works on a batch of images ``(B, C, H, W)`` that already lives
on the training device, so there is no PIL / torchvision dependency and the
two views can be produced straight from a minibatch.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass
class AugmentConfig:
    crop_size: int = 24
    flip_prob: float = 0.5
    brightness: float = 0.4
    contrast: float = 0.4
    jitter_prob: float = 0.8
    grayscale_prob: float = 0.2


def random_crop(x: torch.Tensor, size: int, generator: torch.Generator | None = None) -> torch.Tensor:
    """Crop every image in the batch at its own random offset, then resize back."""
    b, c, h, w = x.shape
    if size >= h and size >= w:
        return x
    top = torch.randint(0, h - size + 1, (b,), generator=generator)
    left = torch.randint(0, w - size + 1, (b,), generator=generator)
    rows = top[:, None] + torch.arange(size)[None, :]           # (B, size)
    cols = left[:, None] + torch.arange(size)[None, :]          # (B, size)
    batch_idx = torch.arange(b)[:, None, None]
    # advanced indexing: (B, size, size, C) -> back to (B, C, size, size)
    crops = x.permute(0, 2, 3, 1)[batch_idx, rows[:, :, None], cols[:, None, :]]
    crops = crops.permute(0, 3, 1, 2)
    return torch.nn.functional.interpolate(crops, size=(h, w), mode="bilinear", align_corners=False)


def random_flip(x: torch.Tensor, p: float, generator: torch.Generator | None = None) -> torch.Tensor:
    mask = torch.rand(x.shape[0], generator=generator) < p
    flipped = x.flip(-1)
    return torch.where(mask[:, None, None, None], flipped, x)


def color_jitter(x: torch.Tensor, cfg: AugmentConfig, generator: torch.Generator | None = None) -> torch.Tensor:
    """Brightness as per-channel scaling, contrast around the per-image mean."""
    b, c = x.shape[:2]
    apply = (torch.rand(b, generator=generator) < cfg.jitter_prob).float()[:, None, None, None]
    scale = 1.0 + (torch.rand(b, c, 1, 1, generator=generator) * 2 - 1) * cfg.brightness
    out = x * scale
    mean = out.mean(dim=(1, 2, 3), keepdim=True)
    contrast = 1.0 + (torch.rand(b, 1, 1, 1, generator=generator) * 2 - 1) * cfg.contrast
    out = (out - mean) * contrast + mean
    return apply * out + (1 - apply) * x


def random_grayscale(x: torch.Tensor, p: float, generator: torch.Generator | None = None) -> torch.Tensor:
    if x.shape[1] != 3:
        return x
    weights = torch.tensor([0.299, 0.587, 0.114], dtype=x.dtype).view(1, 3, 1, 1)
    gray = (x * weights).sum(dim=1, keepdim=True).expand_as(x)
    mask = torch.rand(x.shape[0], generator=generator) < p
    return torch.where(mask[:, None, None, None], gray, x)


class SimCLRAugment:
    """Produce two independently augmented views of the same batch."""

    def __init__(self, cfg: AugmentConfig, seed: int = 0) -> None:
        self.cfg = cfg
        self.generator = torch.Generator().manual_seed(seed)

    def view(self, x: torch.Tensor) -> torch.Tensor:
        g = self.generator
        x = random_crop(x, self.cfg.crop_size, g)
        x = random_flip(x, self.cfg.flip_prob, g)
        x = color_jitter(x, self.cfg, g)
        x = random_grayscale(x, self.cfg.grayscale_prob, g)
        return x.clamp(0.0, 1.0)

    def __call__(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.view(x), self.view(x)
