"""Adversarial losses and the R1 gradient penalty."""

from __future__ import annotations

import torch
import torch.nn.functional as F


def gan_loss(
    logits: torch.Tensor,
    target_is_real: bool,
    mode: str = "vanilla",
    for_discriminator: bool = True,
    label_smoothing: float = 0.0,
) -> torch.Tensor:
    """Loss for one side of the game.

    label_smoothing is one-sided: only the "real" targets are softened, as in
    Salimans et al. 2016. It is ignored for the hinge loss.
    """
    if mode == "vanilla":
        target_val = (1.0 - label_smoothing) if target_is_real else 0.0
        target = torch.full_like(logits, target_val)
        return F.binary_cross_entropy_with_logits(logits, target)
    if mode == "lsgan":
        target_val = (1.0 - label_smoothing) if target_is_real else 0.0
        return F.mse_loss(logits, torch.full_like(logits, target_val))
    if mode == "hinge":
        if for_discriminator:
            if target_is_real:
                return F.relu(1.0 - logits).mean()
            return F.relu(1.0 + logits).mean()
        # generator side of the hinge loss
        return -logits.mean()
    raise ValueError(f"unknown gan loss mode: {mode!r}")


def r1_penalty(real_logits: torch.Tensor, real_images: torch.Tensor) -> torch.Tensor:
    """Gradient penalty on real data (Mescheder et al. 2018)."""
    (grad_real,) = torch.autograd.grad(
        outputs=real_logits.sum(), inputs=real_images, create_graph=True
    )
    return grad_real.pow(2).reshape(grad_real.size(0), -1).sum(1).mean()
