"""SimCLR pretraining on synthetic images, followed by a linear probe.

The dataset is a handful of procedurally generated classes (oriented stripes
with a class-specific tint) so the probe accuracy is meaningful even after a
few pretraining steps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from augment import AugmentConfig, SimCLRAugment
from loss import alignment_uniformity, nt_xent
from model import ResNetEncoder, SimCLR


@dataclass
class TrainConfig:
    image_size: int = 16
    num_classes: int = 4
    num_train: int = 64
    num_test: int = 32
    batch_size: int = 16
    epochs: int = 2
    lr: float = 3e-3
    weight_decay: float = 1e-6
    temp_start: float = 0.5
    temp_end: float = 0.1
    proj_layers: int = 2
    zero_init_residual: bool = True
    probe_steps: int = 40
    seed: int = 0


def make_dataset(n: int, num_classes: int, size: int, generator: torch.Generator):
    labels = torch.randint(0, num_classes, (n,), generator=generator)
    ys, xs = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    images = []
    for label in labels.tolist():
        angle = math.pi * label / num_classes
        freq = 0.6 + 0.1 * label
        phase = torch.rand(1, generator=generator).item() * 2 * math.pi
        stripes = torch.sin(freq * (xs * math.cos(angle) + ys * math.sin(angle)) + phase)
        tint = torch.tensor([1.0 + 0.3 * math.cos(label), 1.0, 1.0 + 0.3 * math.sin(label)])
        img = 0.5 + 0.4 * stripes[None] * tint[:, None, None]
        images.append(img)
    images = torch.stack(images)
    images = images + 0.05 * torch.randn(images.shape, generator=generator)
    return images.clamp(0, 1), labels


def temperature_at(step: int, total: int, cfg: TrainConfig) -> float:
    """Cosine-anneal the temperature from ``temp_start`` to ``temp_end``."""
    progress = min(step / max(1, total - 1), 1.0)
    t = cfg.temp_end + 0.5 * (cfg.temp_start - cfg.temp_end) * (1 + math.cos(math.pi * progress))
    return round(t, 3)


def extract_features(model: nn.Module, images: torch.Tensor, batch_size: int) -> torch.Tensor:
    feats = []
    for i in range(0, images.shape[0], batch_size):
        h, _ = model(images[i:i + batch_size], return_features=True)
        feats.append(h)
    return torch.cat(feats)


def linear_probe(model: nn.Module, compiled: nn.Module, train_set, test_set, cfg: TrainConfig) -> float:
    """Freeze the backbone (eval-mode BN) and fit a linear classifier on its features."""
    model.eval()
    with torch.no_grad():
        train_feats = extract_features(compiled, train_set[0], cfg.batch_size)
        test_feats = extract_features(compiled, test_set[0], cfg.batch_size)
    mean, std = train_feats.mean(0), train_feats.std(0) + 1e-6
    train_feats, test_feats = (train_feats - mean) / std, (test_feats - mean) / std

    probe = nn.Linear(train_feats.shape[1], cfg.num_classes)
    opt = torch.optim.Adam(probe.parameters(), lr=1e-2)
    for _ in range(cfg.probe_steps):
        loss = F.cross_entropy(probe(train_feats), train_set[1])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (probe(test_feats).argmax(1) == test_set[1]).float().mean().item()
    return acc


def main(cfg: TrainConfig) -> None:
    torch.manual_seed(cfg.seed)
    g = torch.Generator().manual_seed(cfg.seed)
    train_set = make_dataset(cfg.num_train, cfg.num_classes, cfg.image_size, g)
    test_set = make_dataset(cfg.num_test, cfg.num_classes, cfg.image_size, g)

    augment = SimCLRAugment(AugmentConfig(crop_size=cfg.image_size * 3 // 4), seed=cfg.seed)
    encoder = ResNetEncoder(layers=(1, 1), widths=(8, 16), zero_init_residual=cfg.zero_init_residual)
    model = SimCLR(encoder, proj_hidden=32, proj_dim=16, proj_layers=cfg.proj_layers)
    compiled = torch.compile(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)

    steps_per_epoch = cfg.num_train // cfg.batch_size
    total_steps = cfg.epochs * steps_per_epoch
    step = 0
    for epoch in range(cfg.epochs):
        model.train()
        perm = torch.randperm(cfg.num_train, generator=g)
        running = 0.0
        for i in range(steps_per_epoch):
            idx = perm[i * cfg.batch_size:(i + 1) * cfg.batch_size]
            x1, x2 = augment(train_set[0][idx])
            temperature = temperature_at(step, total_steps, cfg)
            z1 = compiled(x1)
            z2 = compiled(x2)
            loss = nt_xent(z1, z2, temperature)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            running += loss.item()
            step += 1
        align, uniform = alignment_uniformity(z1.detach(), z2.detach())
        print(f"epoch {epoch} | loss {running / steps_per_epoch:.4f} | tau {temperature:.3f} "
              f"| align {align:.3f} | uniform {uniform:.3f}")

    acc = linear_probe(model, compiled, train_set, test_set, cfg)
    print(f"linear probe accuracy: {acc:.3f}")


if __name__ == "__main__":
    main(TrainConfig())
