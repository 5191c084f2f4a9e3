from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import ShapesDataset
from network import SegNet


@dataclass
class Config:
    num_classes: int = 4
    image_size: int = 32
    width: int = 8
    aspp_rates: list[int] = field(default_factory=lambda: [1, 2, 3])
    ignore_index: int = 255
    batch_size: int = 8
    max_iters: int = 40
    base_lr: float = 0.1
    poly_power: float = 0.9
    momentum: float = 0.9
    weight_decay: float = 1e-4
    aux_weight: float = 0.4
    eval_scales: list[float] = field(default_factory=lambda: [0.75, 1.0, 1.5])
    eval_flip: bool = True
    num_train: int = 64
    num_val: int = 16
    seed: int = 42


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def poly_lr(base_lr: float, it: int, max_iters: int, power: float) -> float:
    return base_lr * (1.0 - it / max_iters) ** power


@torch.compile
def seg_loss(outputs: dict[str, torch.Tensor], target: torch.Tensor, aux_weight: float, ignore_index: int) -> torch.Tensor:
    loss = F.cross_entropy(outputs["out"], target, ignore_index=ignore_index)
    if "aux" in outputs:
        loss = loss + aux_weight * F.cross_entropy(outputs["aux"], target, ignore_index=ignore_index)
    return loss


@torch.no_grad()
@torch.compile
def multiscale_predict(model: torch.nn.Module, images: torch.Tensor, scales: list[float], flip: bool, num_classes: int) -> torch.Tensor:
    n, _, h, w = images.shape
    probs = images.new_zeros((n, num_classes, h, w))
    for scale in scales:
        size = (int(h * scale + 0.5), int(w * scale + 0.5))
        x = F.interpolate(images, size=size, mode="bilinear", align_corners=False)
        logits = model(x)["out"]
        if flip:
            logits = logits + model(torch.flip(x, dims=[3]))["out"].flip(3)
        logits = F.interpolate(logits, size=(h, w), mode="bilinear", align_corners=False)
        probs += logits.softmax(dim=1)
    return probs / len(scales)


def fast_hist(pred: np.ndarray, label: np.ndarray, num_classes: int) -> np.ndarray:
    valid = (label >= 0) & (label < num_classes)
    idx = num_classes * label[valid].astype(np.int64) + pred[valid]
    return np.bincount(idx, minlength=num_classes**2).reshape(num_classes, num_classes)


def mean_iou(hist: np.ndarray) -> tuple[float, np.ndarray]:
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.diag(hist) / (hist.sum(axis=1) + hist.sum(axis=0) - np.diag(hist))
    return float(np.nanmean(iou)), iou


def train(cfg: Config, model: SegNet, loader: DataLoader) -> None:
    optimizer = torch.optim.SGD(
        model.parameters(), lr=cfg.base_lr, momentum=cfg.momentum, weight_decay=cfg.weight_decay
    )
    compiled = torch.compile(model)
    model.train()
    it = 0
    while it < cfg.max_iters:
        for images, masks in loader:
            if it >= cfg.max_iters:
                break
            lr = poly_lr(cfg.base_lr, it, cfg.max_iters, cfg.poly_power)
            for group in optimizer.param_groups:
                group["lr"] = lr
            outputs = compiled(images)
            loss = seg_loss(outputs, masks, cfg.aux_weight, cfg.ignore_index)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            if it % 10 == 0 or it == cfg.max_iters - 1:
                print(f"iter {it:3d}  lr {lr:.5f}  loss {loss.item():.4f}")
            it += 1


def evaluate(cfg: Config, model: SegNet, loader: DataLoader) -> float:
    model.eval()
    hist = np.zeros((cfg.num_classes, cfg.num_classes), dtype=np.int64)
    for images, masks in loader:
        probs = multiscale_predict(model, images, cfg.eval_scales, cfg.eval_flip, cfg.num_classes)
        preds = probs.argmax(dim=1).cpu().numpy()
        hist += fast_hist(preds.ravel(), masks.numpy().ravel(), cfg.num_classes)
    miou, per_class = mean_iou(hist)
    print("per-class IoU:", np.round(per_class, 3).tolist())
    return miou


def main() -> None:
    cfg = Config()
    seed_everything(cfg.seed)
    train_set = ShapesDataset(cfg.num_train, cfg.image_size, cfg.num_classes, cfg.ignore_index, seed=cfg.seed, hflip=True)
    val_set = ShapesDataset(cfg.num_val, cfg.image_size, cfg.num_classes, cfg.ignore_index, seed=cfg.seed + 100)
    train_loader = DataLoader(train_set, batch_size=cfg.batch_size, shuffle=True, drop_last=True)
    val_loader = DataLoader(val_set, batch_size=cfg.batch_size, shuffle=False)

    model = SegNet(cfg.num_classes, width=cfg.width, aspp_rates=cfg.aspp_rates, aux_head=cfg.aux_weight > 0)
    start = time.perf_counter()
    train(cfg, model, train_loader)
    miou = evaluate(cfg, model, val_loader)
    print(f"mIoU (scales={cfg.eval_scales}, flip={cfg.eval_flip}): {miou:.4f}  [{time.perf_counter() - start:.1f}s]")


if __name__ == "__main__":
    main()
