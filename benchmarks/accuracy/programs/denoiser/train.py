"""Train the denoiser to predict noise; EMA of the weights, min-SNR-free simple loss."""

from __future__ import annotations

import copy

import torch
import torch.nn.functional as F

from model import DiffusionConfig, Denoiser, NoiseSchedule

STEPS = 4
EMA_DECAY = 0.99
LOG_EVERY = 2


def training_loss(model, schedule, x0, t, p_uncond):
    noise = torch.randn_like(x0)
    noisy = schedule.add_noise(x0, noise, t)
    if p_uncond > 0:
        noisy = noisy * (torch.rand(x0.shape[0], 1, 1, 1) > p_uncond)
    return F.mse_loss(model(noisy, t), noise)


@torch.no_grad()
def update_ema(ema, model, decay):
    for e, p in zip(ema.parameters(), model.parameters()):
        e.mul_(decay).add_(p, alpha=1 - decay)


def main() -> None:
    torch.manual_seed(0)
    cfg = DiffusionConfig(num_timesteps=40)
    model = Denoiser(cfg)
    ema = copy.deepcopy(model)
    schedule = NoiseSchedule(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
    loss_fn = torch.compile(training_loss)
    for step in range(STEPS):
        x0 = torch.randn(4, cfg.channels, 16, 16)
        t = torch.randint(0, schedule.num_timesteps, (x0.shape[0],))
        loss = loss_fn(model, schedule, x0, t, 0.1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        update_ema(ema, model, EMA_DECAY)
        if step % LOG_EVERY == 0:
            print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
