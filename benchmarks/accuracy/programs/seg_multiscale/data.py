from __future__ import annotations

import numpy as np
import torch
from torch.utils.data import Dataset

PALETTE = np.array(
    [[0.0, 0.0, 0.0], [0.9, 0.2, 0.2], [0.2, 0.8, 0.3], [0.2, 0.3, 0.9], [0.8, 0.8, 0.2]], dtype=np.float32
)
MEAN = np.array([0.25, 0.25, 0.25], dtype=np.float32)
STD = np.array([0.35, 0.35, 0.35], dtype=np.float32)


def render_shapes(rng: np.random.Generator, size: int, num_classes: int, ignore_index: int) -> tuple[np.ndarray, np.ndarray]:
    image = rng.normal(0.0, 0.08, size=(3, size, size)).astype(np.float32)
    mask = np.zeros((size, size), dtype=np.int64)
    yy, xx = np.mgrid[:size, :size]
    for _ in range(int(rng.integers(1, 4))):
        cls = int(rng.integers(1, num_classes))
        cy, cx = rng.integers(0, size, size=2)
        r = int(rng.integers(size // 8, size // 3))
        if cls % 3 == 1:
            region = (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
        elif cls % 3 == 2:
            region = (np.abs(yy - cy) <= r) & (np.abs(xx - cx) <= r)
        else:
            region = np.abs(yy - cy) + np.abs(xx - cx) <= r
        color = PALETTE[cls % len(PALETTE)] + rng.normal(0.0, 0.1, size=3).astype(np.float32)
        image[:, region] = color[:, None]
        mask[region] = cls
    # mark a thin border as void, as in VOC-style annotations
    edge = np.zeros_like(mask, dtype=bool)
    edge[:-1, :] |= mask[:-1, :] != mask[1:, :]
    edge[:, :-1] |= mask[:, :-1] != mask[:, 1:]
    mask[edge] = ignore_index
    image = (image - MEAN[:, None, None]) / STD[:, None, None]
    return image, mask


class ShapesDataset(Dataset):
    def __init__(
        self, num_samples: int, size: int, num_classes: int, ignore_index: int = 255, seed: int = 0, hflip: bool = False
    ) -> None:
        rng = np.random.default_rng(seed)
        samples = [render_shapes(rng, size, num_classes, ignore_index) for _ in range(num_samples)]
        self.images = np.stack([s[0] for s in samples])
        self.masks = np.stack([s[1] for s in samples])
        self.hflip = hflip
        self.rng = np.random.default_rng(seed + 1)

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, idx: int) -> tuple[torch.Tensor, torch.Tensor]:
        image, mask = self.images[idx], self.masks[idx]
        if self.hflip and self.rng.random() < 0.5:
            image, mask = image[..., ::-1], mask[..., ::-1]
        return torch.from_numpy(image.copy()), torch.from_numpy(mask.copy())
