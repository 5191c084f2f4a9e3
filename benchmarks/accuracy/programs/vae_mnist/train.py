"""Train the conv VAE on fake MNIST-like batches with KL annealing."""

from __future__ import annotations

import time

import torch
import torch.nn.functional as F

from config import VAEConfig, get_config
from model import VAE


@torch.compile
def vae_loss(recon_logits, x, mu, logvar, beta):
    """Negative ELBO per example: reconstruction + beta * KL(q(z|x) || N(0, I))."""
    recon = F.binary_cross_entropy_with_logits(recon_logits, x, reduction="sum") / x.shape[0]
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.shape[0]
    return recon + beta * kl, recon, kl


def kl_weight(step: int, cfg: VAEConfig) -> float:
    """Linear KL warm-up from 0 to cfg.beta over cfg.kl_warmup_steps."""
    if cfg.kl_warmup_steps <= 0:
        return cfg.beta
    return cfg.beta * min(1.0, step / cfg.kl_warmup_steps)


def fake_mnist(batch_size: int, image_size: int, generator: torch.Generator) -> torch.Tensor:
    # blobs of "ink" in [0, 1], roughly the statistics of binarised digits
    x = torch.rand(batch_size, 1, image_size, image_size, generator=generator)
    return (x > 0.7).float()


def evaluate(model, cfg: VAEConfig, generator: torch.Generator) -> float:
    model.eval()
    with torch.no_grad():
        x = fake_mnist(cfg.batch_size, cfg.image_size, generator)
        recon_logits, mu, logvar = model(x)
        loss, _, _ = vae_loss(recon_logits, x, mu, logvar, cfg.beta)
    model.train()
    return loss.item()


def main() -> None:
    cfg = get_config(max_steps=6, log_every=2)
    torch.manual_seed(cfg.seed)
    gen = torch.Generator().manual_seed(cfg.seed)

    model = VAE(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    model = torch.compile(model)

    n_params = sum(p.numel() for p in model.parameters())
    print(f"VAE with {n_params} parameters, latent_dim={cfg.latent_dim}")

    t0 = time.time()
    for step in range(cfg.max_steps):
        x = fake_mnist(cfg.batch_size, cfg.image_size, gen)
        beta = kl_weight(step, cfg)

        recon_logits, mu, logvar = model(x)
        loss, recon, kl = vae_loss(recon_logits, x, mu, logvar, beta)

        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

        if step % cfg.log_every == 0 or step == cfg.max_steps - 1:
            print(
                f"step {step:3d} | beta {beta:.3f} | loss {loss.item():8.3f} "
                f"| recon {recon.item():8.3f} | kl {kl.item():6.3f}"
            )

    val = evaluate(model, cfg, gen)
    samples = model.sample(4)
    print(f"eval loss {val:.3f} | sample mean {samples.mean().item():.3f}")
    print(f"done in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
