"""Synthetic point clouds sampled from the surfaces of simple shapes."""

from __future__ import annotations

import math
from typing import Iterator, Tuple

import torch
from torch.utils.data import Dataset

SHAPES = ("sphere", "cube", "cylinder")


def sample_sphere(num_points: int, gen: torch.Generator) -> torch.Tensor:
    pts = torch.randn(num_points, 3, generator=gen)
    return pts / pts.norm(dim=1, keepdim=True).clamp_min(1e-8)


def sample_cube(num_points: int, gen: torch.Generator) -> torch.Tensor:
    pts = torch.rand(num_points, 3, generator=gen) * 2.0 - 1.0
    # push one coordinate per point onto a face of the cube
    axis = torch.randint(0, 3, (num_points,), generator=gen)
    sign = torch.randint(0, 2, (num_points,), generator=gen).float() * 2.0 - 1.0
    pts[torch.arange(num_points), axis] = sign
    return pts


def sample_cylinder(num_points: int, gen: torch.Generator, height: float = 2.0) -> torch.Tensor:
    theta = torch.rand(num_points, generator=gen) * 2.0 * math.pi
    z = (torch.rand(num_points, generator=gen) - 0.5) * height
    return torch.stack([torch.cos(theta), torch.sin(theta), z], dim=1)


def random_rotation_z(gen: torch.Generator) -> torch.Tensor:
    angle = float(torch.rand(1, generator=gen)) * 2.0 * math.pi
    c, s = math.cos(angle), math.sin(angle)
    return torch.tensor([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def normalize_cloud(pts: torch.Tensor) -> torch.Tensor:
    pts = pts - pts.mean(dim=0, keepdim=True)
    return pts / pts.norm(dim=1).max().clamp_min(1e-8)


class ShapeCloudDataset(Dataset):
    """Each item is (points [num_points, 3], label)."""

    def __init__(
        self,
        num_samples: int,
        num_points: int = 128,
        jitter_sigma: float = 0.01,
        augment: bool = True,
        seed: int = 0,
    ) -> None:
        self.num_samples = num_samples
        self.num_points = num_points
        self.jitter_sigma = jitter_sigma
        self.augment = augment
        self.seed = seed
        self.samplers = {"sphere": sample_sphere, "cube": sample_cube, "cylinder": sample_cylinder}

    def __len__(self) -> int:
        return self.num_samples

    def __getitem__(self, idx: int) -> Tuple[torch.Tensor, int]:
        gen = torch.Generator().manual_seed(self.seed * 100003 + idx)
        label = idx % len(SHAPES)
        pts = self.samplers[SHAPES[label]](self.num_points, gen)
        if self.augment:
            pts = pts @ random_rotation_z(gen).T
            scale = 0.8 + 0.4 * torch.rand(3, generator=gen)
            pts = pts * scale
        pts = pts + self.jitter_sigma * torch.randn(pts.shape, generator=gen)
        return normalize_cloud(pts), label


def iterate_batches(dataset: ShapeCloudDataset, batch_size: int, shuffle: bool, seed: int = 0) -> Iterator:
    order = torch.arange(len(dataset))
    if shuffle:
        order = torch.randperm(len(dataset), generator=torch.Generator().manual_seed(seed))
    for start in range(0, len(dataset), batch_size):
        items = [dataset[int(i)] for i in order[start : start + batch_size]]
        points = torch.stack([p for p, _ in items])
        labels = torch.tensor([lbl for _, lbl in items], dtype=torch.long)
        yield points, labels
