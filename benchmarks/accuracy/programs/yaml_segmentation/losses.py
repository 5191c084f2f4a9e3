"""Cross-entropy + soft Dice, both respecting ignore_index; weights come from the config."""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F


def soft_dice_loss(logits: torch.Tensor, target: torch.Tensor, ignore_index: int, smooth: float = 1.0) -> torch.Tensor:
    num_classes = logits.shape[1]
    valid = (target != ignore_index).unsqueeze(1)  # (B, 1, H, W)
    probs = logits.softmax(dim=1) * valid
    safe_target = target.masked_fill(target == ignore_index, 0)
    one_hot = F.one_hot(safe_target, num_classes).permute(0, 3, 1, 2).to(probs.dtype) * valid
    dims = (0, 2, 3)
    intersection = (probs * one_hot).sum(dims)
    cardinality = probs.sum(dims) + one_hot.sum(dims)
    dice = (2.0 * intersection + smooth) / (cardinality + smooth)
    return 1.0 - dice.mean()


class SegmentationLoss(nn.Module):
    def __init__(self, cfg: dict, num_classes: int, ignore_index: int = 255) -> None:
        super().__init__()
        self.ce_weight = float(cfg.get("ce_weight", 1.0))
        self.dice_weight = float(cfg.get("dice_weight", 0.0))
        self.aux_weight = float(cfg.get("aux_weight", 0.0))
        self.smooth = float(cfg.get("dice_smooth", 1.0))
        self.label_smoothing = float(cfg.get("label_smoothing", 0.0))
        self.ignore_index = ignore_index
        class_weights = cfg.get("class_weights")
        if class_weights is not None:
            assert len(class_weights) == num_classes, "class_weights must have one entry per class"
            self.register_buffer("class_weights", torch.tensor(class_weights, dtype=torch.float32))
        else:
            self.class_weights = None

    def _ce(self, logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits, target, weight=self.class_weights, ignore_index=self.ignore_index,
                               label_smoothing=self.label_smoothing)

    def forward(self, outputs: dict[str, torch.Tensor], target: torch.Tensor) -> tuple[torch.Tensor, dict]:
        logits = outputs["out"]
        parts = {}
        total = logits.new_zeros(())
        if self.ce_weight > 0:
            parts["ce"] = self._ce(logits, target)
            total = total + self.ce_weight * parts["ce"]
        if self.dice_weight > 0:
            parts["dice"] = soft_dice_loss(logits, target, self.ignore_index, self.smooth)
            total = total + self.dice_weight * parts["dice"]
        if "aux" in outputs and self.aux_weight > 0:
            parts["aux"] = self._ce(outputs["aux"], target)
            total = total + self.aux_weight * parts["aux"]
        return total, {k: v.detach() for k, v in parts.items()}
