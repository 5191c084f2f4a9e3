"""Train a small DCGAN on synthetic blob images, for a few loss/regulariser variants."""

from __future__ import annotations

import time
from typing import Dict

import torch
import torch.nn.functional as F

from losses import gan_loss, r1_penalty
from nets import Discriminator, Generator, weights_init

IMAGE_SIZE = 16
NUM_CHANNELS = 3
BATCH_SIZE = 8

BASE_CONFIG: Dict[str, object] = {
    "nz": 16,
    "ngf": 8,
    "ndf": 8,
    "num_levels": 2,
    "lr_g": 2e-4,
    "lr_d": 2e-4,
    "beta1": 0.5,
    "leaky_slope": 0.2,
    "label_smoothing": 0.1,
    "r1_gamma": 10.0,
    "r1_every": 2,
    "n_critic": 1,
    "num_steps": 4,
}

EXPERIMENTS = [
    {"name": "dcgan", "loss_mode": "vanilla", "spectral_norm": False, "r1_every": 0},
    {"name": "sngan-hinge", "loss_mode": "hinge", "spectral_norm": True, "n_critic": 2},
    {"name": "lsgan", "loss_mode": "lsgan", "spectral_norm": False, "label_smoothing": 0.0},
]


def sample_real_images(batch_size: int, gen: torch.Generator) -> torch.Tensor:
    """Smooth colour blobs: low-res noise upsampled to IMAGE_SIZE and squashed to [-1, 1]."""
    coarse = torch.randn(batch_size, NUM_CHANNELS, 4, 4, generator=gen)
    img = F.interpolate(coarse, size=(IMAGE_SIZE, IMAGE_SIZE), mode="bilinear", align_corners=False)
    return torch.tanh(1.5 * img)


def train(cfg: Dict[str, object], seed: int = 0) -> Dict[str, float]:
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    nz = int(cfg["nz"])
    mode = str(cfg["loss_mode"])
    smoothing = float(cfg["label_smoothing"])
    r1_every = int(cfg["r1_every"])
    r1_gamma = float(cfg["r1_gamma"])

    netG = Generator(nz=nz, ngf=int(cfg["ngf"]), nc=NUM_CHANNELS, num_levels=int(cfg["num_levels"]))
    netD = Discriminator(
        nc=NUM_CHANNELS,
        ndf=int(cfg["ndf"]),
        num_levels=int(cfg["num_levels"]),
        negative_slope=float(cfg["leaky_slope"]),
        use_spectral_norm=bool(cfg["spectral_norm"]),
    )
    netG.apply(weights_init)
    if not cfg["spectral_norm"]:
        netD.apply(weights_init)

    optG = torch.optim.Adam(netG.parameters(), lr=float(cfg["lr_g"]), betas=(float(cfg["beta1"]), 0.999))
    optD = torch.optim.Adam(netD.parameters(), lr=float(cfg["lr_d"]), betas=(float(cfg["beta1"]), 0.999))

    G = torch.compile(netG)
    D = torch.compile(netD)
    criterion = torch.compile(gan_loss)

    fixed_noise = torch.randn(BATCH_SIZE, nz, generator=gen)
    stats = {"loss_d": 0.0, "loss_g": 0.0, "r1": 0.0}
    for step in range(int(cfg["num_steps"])):
        # ---- (1) update D: maximise log D(x) + log(1 - D(G(z))) ----
        for _ in range(int(cfg["n_critic"])):
            real = sample_real_images(BATCH_SIZE, gen)
            noise = torch.randn(BATCH_SIZE, nz, generator=gen)
            optD.zero_grad(set_to_none=True)
            with torch.no_grad():
                fake = G(noise)
            loss_real = criterion(D(real), True, mode, True, smoothing)
            loss_fake = criterion(D(fake), False, mode, True, 0.0)
            loss_d = loss_real + loss_fake
            loss_d.backward()

            if r1_every > 0 and step % r1_every == 0:
                # double backward is not supported through the compiled graph; use the eager module
                real_req = real.detach().requires_grad_(True)
                penalty = r1_penalty(netD(real_req), real_req)
                (0.5 * r1_gamma * r1_every * penalty).backward()
                stats["r1"] = penalty.item()
            optD.step()

        # ---- (2) update G: maximise log D(G(z)) ----
        optG.zero_grad(set_to_none=True)
        noise = torch.randn(BATCH_SIZE, nz, generator=gen)
        fake = G(noise)
        loss_g = criterion(D(fake), True, mode, False)
        loss_g.backward()
        optG.step()

        stats["loss_d"] = loss_d.item()
        stats["loss_g"] = loss_g.item()
        print(
            f"  [{cfg['name']}] step {step}: loss_D {stats['loss_d']:.4f} "
            f"loss_G {stats['loss_g']:.4f} r1 {stats['r1']:.4f}"
        )

    netG.eval()
    with torch.no_grad():
        samples = G(fixed_noise)
    stats["sample_std"] = samples.std().item()
    return stats


def main() -> None:
    for exp in EXPERIMENTS:
        cfg = {**BASE_CONFIG, **exp}
        t0 = time.time()
        print(f"experiment {cfg['name']}: mode={cfg['loss_mode']} spectral_norm={cfg['spectral_norm']}")
        stats = train(cfg)
        print(f"  done in {time.time() - t0:.1f}s, sample std {stats['sample_std']:.3f}")


if __name__ == "__main__":
    main()
