"""Train a small U-Net on synthetic shapes; everything is driven by the YAML block below."""

from __future__ import annotations

import time

import torch
import yaml
from torch.utils.data import DataLoader

from data import make_shapes
from losses import SegmentationLoss
from model import UNet

CONFIG_YAML = """
experiment: shapes-unet-small
seed: 0
data:
  num_classes: 3
  image_size: 32
  train_samples: 48
  val_samples: 12
  ignore_index: 255
  ignore_border: 2
model:
  in_channels: 3
  encoder:
    channels: [8, 16, 32]
    blocks_per_stage: 2
    norm: bn
    act: ReLU
    act_kwargs: {inplace: true}
  decoder:
    channels: [16, 8]
    norm: gn
    gn_groups: 4
    act: GELU
    upsample: bilinear
  head:
    dropout: 0.1
    aux_weight: 0.4
loss:
  ce_weight: 1.0
  dice_weight: 0.5
  aux_weight: 0.4
  dice_smooth: 1.0
  class_weights: [0.5, 1.0, 1.0]
optim:
  lr: 0.05
  momentum: 0.9
  weight_decay: 1.0e-4
  poly_power: 0.9
train:
  epochs: 3
  batch_size: 8
  eval_batch_size: 12
  compile: true
  compile_mode: reduce-overhead
  log_every: 3
"""


def poly_lr(base_lr: float, it: int, max_iters: int, power: float) -> float:
    return base_lr * (1.0 - it / max_iters) ** power


@torch.no_grad()
def evaluate(model, loader, num_classes: int, ignore_index: int) -> dict:
    model.eval()
    confusion = torch.zeros(num_classes, num_classes, dtype=torch.long)
    for images, masks in loader:
        pred = model(images)["out"].argmax(dim=1)
        valid = masks != ignore_index
        idx = masks[valid] * num_classes + pred[valid]
        confusion += torch.bincount(idx, minlength=num_classes**2).view(num_classes, num_classes)
    model.train()
    tp = confusion.diag().float()
    iou = tp / (confusion.sum(0) + confusion.sum(1) - confusion.diag()).clamp(min=1).float()
    return {"mIoU": iou.mean().item(), "pixel_acc": (tp.sum() / confusion.sum().clamp(min=1)).item(),
            "per_class_iou": [round(v, 3) for v in iou.tolist()]}


def main() -> None:
    cfg = yaml.safe_load(CONFIG_YAML)
    torch.manual_seed(cfg["seed"])
    data_cfg, train_cfg, optim_cfg = cfg["data"], cfg["train"], cfg["optim"]
    num_classes, ignore_index = data_cfg["num_classes"], data_cfg["ignore_index"]

    common = dict(image_size=data_cfg["image_size"], num_classes=num_classes, ignore_index=ignore_index,
                  ignore_border=data_cfg["ignore_border"])
    train_ds = make_shapes(data_cfg["train_samples"], seed=cfg["seed"], **common)
    val_ds = make_shapes(data_cfg["val_samples"], seed=cfg["seed"] + 1, **common)
    train_loader = DataLoader(train_ds, batch_size=train_cfg["batch_size"], shuffle=True, drop_last=True,
                              generator=torch.Generator().manual_seed(cfg["seed"]))
    val_loader = DataLoader(val_ds, batch_size=train_cfg["eval_batch_size"])

    model = UNet(cfg["model"], num_classes)
    criterion = SegmentationLoss(cfg["loss"], num_classes, ignore_index=ignore_index)
    optimizer = torch.optim.SGD(model.parameters(), lr=optim_cfg["lr"], momentum=optim_cfg["momentum"],
                                weight_decay=optim_cfg["weight_decay"], nesterov=True)
    print(f"{cfg['experiment']}: {sum(p.numel() for p in model.parameters()):,} params, "
          f"encoder norm={cfg['model']['encoder']['norm']}, decoder norm={cfg['model']['decoder']['norm']}")
    if train_cfg["compile"]:
        model = torch.compile(model, mode=train_cfg["compile_mode"])

    max_iters = train_cfg["epochs"] * len(train_loader)
    it = 0
    t0 = time.perf_counter()
    for epoch in range(train_cfg["epochs"]):
        for images, masks in train_loader:
            lr = poly_lr(optim_cfg["lr"], it, max_iters, optim_cfg["poly_power"])
            for group in optimizer.param_groups:
                group["lr"] = lr
            outputs = model(images)
            loss, parts = criterion(outputs, masks)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            if it % train_cfg["log_every"] == 0:
                detail = " ".join(f"{k}={v.item():.3f}" for k, v in parts.items())
                print(f"epoch {epoch} it {it:3d} lr {lr:.4f} loss {loss.item():.4f} ({detail})")
            it += 1
        metrics = evaluate(model, val_loader, num_classes, ignore_index)
        print(f"epoch {epoch} val mIoU {metrics['mIoU']:.3f} pixel_acc {metrics['pixel_acc']:.3f} "
              f"iou/class {metrics['per_class_iou']}")
    print(f"done: {it} iterations in {time.perf_counter() - t0:.1f}s")


if __name__ == "__main__":
    main()
