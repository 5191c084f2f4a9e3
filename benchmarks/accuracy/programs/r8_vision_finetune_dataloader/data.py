"""Synthetic image classification data: class-dependent colour blobs + noise."""
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import VisionConfig


def make_images(cfg: VisionConfig, n: int, seed: int):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, cfg.num_classes, (n,), generator=g)
    s = cfg.image_size
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, s), torch.linspace(-1, 1, s), indexing="ij")
    centers = torch.linspace(-0.6, 0.6, cfg.num_classes)
    cx = centers[labels].view(n, 1, 1)
    blob = torch.exp(-((xx - cx) ** 2 + yy ** 2) / 0.15)
    colour = torch.rand(cfg.num_classes, cfg.in_channels, generator=g)[labels].view(n, cfg.in_channels, 1, 1)
    images = 0.5 + 0.3 * colour * blob.unsqueeze(1) + 0.1 * torch.randn(n, cfg.in_channels, s, s, generator=g)
    return images.clamp(0.0, 1.0), labels


def random_flip(images: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    flip = torch.rand(images.shape[0], generator=generator) < 0.5
    return torch.where(flip.view(-1, 1, 1, 1), images.flip(-1), images)


def build_loaders(cfg: VisionConfig, batch_size: int, seed: int):
    x_tr, y_tr = make_images(cfg, 150, seed)
    x_va, y_va = make_images(cfg, 40, seed + 100)
    g = torch.Generator().manual_seed(seed)
    train_loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=batch_size, shuffle=True,
                              drop_last=False, generator=g, num_workers=0)
    val_loader = DataLoader(TensorDataset(x_va, y_va), batch_size=batch_size, shuffle=False,
                            drop_last=False, num_workers=0)
    return train_loader, val_loader
