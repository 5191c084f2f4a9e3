"""Synthetic 'shapes' segmentation data: discs (class 1) and squares (class 2) on noise."""

from __future__ import annotations

import torch
from torch.utils.data import TensorDataset

PALETTE = torch.tensor([[0.2, 0.2, 0.2], [0.9, 0.3, 0.2], [0.2, 0.5, 0.9]])


def make_shapes(n: int, image_size: int, num_classes: int, ignore_index: int, ignore_border: int = 0,
                noise: float = 0.25, seed: int = 0) -> TensorDataset:
    g = torch.Generator().manual_seed(seed)
    masks = torch.zeros(n, image_size, image_size, dtype=torch.long)
    yy, xx = torch.meshgrid(torch.arange(image_size), torch.arange(image_size), indexing="ij")
    for i in range(n):
        for _ in range(int(torch.randint(1, 4, (1,), generator=g))):
            cls = int(torch.randint(1, num_classes, (1,), generator=g))
            cy, cx = torch.randint(4, image_size - 4, (2,), generator=g).tolist()
            r = int(torch.randint(3, image_size // 4, (1,), generator=g))
            if cls == 1:
                region = (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
            else:
                region = ((yy - cy).abs() <= r) & ((xx - cx).abs() <= r)
            masks[i][region] = cls
    images = PALETTE[:num_classes][masks].permute(0, 3, 1, 2).contiguous()
    images = images + noise * torch.randn(images.shape, generator=g)
    if ignore_border > 0:
        b = ignore_border
        masks[:, :b, :] = ignore_index
        masks[:, -b:, :] = ignore_index
        masks[:, :, :b] = ignore_index
        masks[:, :, -b:] = ignore_index
    return TensorDataset(images, masks)
