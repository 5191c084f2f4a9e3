"""Train the tiny UNet for a couple of steps, then sample with classifier-free guidance."""

from __future__ import annotations

import copy
import time

import torch
import torch.nn.functional as F

from model import UNet
from scheduler import DDPMScheduler

cfg = {
    "model": {
        "in_ch": 3,
        "base_ch": 16,
        "ch_mult": (1, 2),
        "num_res_blocks": 1,
        "num_groups": 4,
        "dropout": 0.1,
        "num_classes": 4,
    },
    "diffusion": {"num_train_timesteps": 100, "schedule": "linear", "clip_sample": True},
    "train": {"batch_size": 4, "image_size": 16, "lr": 2e-4, "steps": 2, "p_uncond": 0.2,
              "ema_decay": 0.999},
    "sampling": {"steps": 4, "guidance": 1.5, "num_samples": 2},
    "seed": 0,
}


def train_step(unet, scheduler, optimizer, x0, labels, tcfg):
    noise = torch.randn_like(x0)
    t = torch.randint(0, scheduler.num_train_timesteps, (x0.shape[0],))
    x_t = scheduler.add_noise(x0, noise, t)
    # drop labels so the model also learns the unconditional score
    drop = torch.rand(x0.shape[0]) < tcfg["p_uncond"]
    labels = torch.where(drop, torch.full_like(labels, cfg["model"]["num_classes"]), labels)
    pred = unet(x_t, t, labels)
    loss = F.mse_loss(pred, noise)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss.item()


@torch.no_grad()
def ema_update(ema_model, model, decay: float) -> None:
    for p_ema, p in zip(ema_model.parameters(), model.parameters()):
        p_ema.lerp_(p, 1.0 - decay)


@torch.no_grad()
def sample(unet, scheduler, labels, image_size, num_steps, guidance_scale, generator):
    n = labels.shape[0]
    x = torch.randn(n, cfg["model"]["in_ch"], image_size, image_size, generator=generator)
    null = torch.full_like(labels, cfg["model"]["num_classes"])
    scheduler.set_timesteps(num_steps)
    for t in scheduler.timesteps.tolist():
        if guidance_scale == 1.0:
            eps = unet(x, t, labels)
        else:
            eps_cond = unet(x, t, labels)
            eps_uncond = unet(x, t, null)
            eps = eps_uncond + guidance_scale * (eps_cond - eps_uncond)
        x = scheduler.step(eps, t, x, generator=generator)
    return x.clamp(-1.0, 1.0)


def main() -> None:
    torch.manual_seed(cfg["seed"])
    gen = torch.Generator().manual_seed(cfg["seed"])
    tcfg, scfg = cfg["train"], cfg["sampling"]

    unet = UNet(**cfg["model"])
    scheduler = DDPMScheduler(**cfg["diffusion"])
    ema = copy.deepcopy(unet).eval().requires_grad_(False)
    optimizer = torch.optim.AdamW(unet.parameters(), lr=tcfg["lr"])
    print(f"unet params: {sum(p.numel() for p in unet.parameters()) / 1e3:.1f}k")

    model = torch.compile(unet, dynamic=False)
    t0 = time.time()
    for step in range(tcfg["steps"]):
        x0 = torch.rand(tcfg["batch_size"], 3, tcfg["image_size"], tcfg["image_size"]) * 2 - 1
        labels = torch.randint(0, cfg["model"]["num_classes"], (tcfg["batch_size"],))
        loss = train_step(model, scheduler, optimizer, x0, labels, tcfg)
        ema_update(ema, unet, tcfg["ema_decay"])
        print(f"train step {step} | loss {loss:.4f}")

    # sample from the online weights with the same compiled module
    model.eval()
    labels = torch.arange(scfg["num_samples"]) % cfg["model"]["num_classes"]
    imgs = sample(model, scheduler, labels, tcfg["image_size"], scfg["steps"],
                  scfg["guidance"], gen)
    print(f"samples {tuple(imgs.shape)} | mean {imgs.mean().item():.3f} std {imgs.std().item():.3f}")
    print(f"done in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
