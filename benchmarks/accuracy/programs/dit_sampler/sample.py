import argparse
import math
import time

import torch
import torch.nn.functional as F

from dit import DiT, DiTConfig
from schedule import NoiseSchedule


def make_dataset(n: int, config: DiTConfig) -> tuple[torch.Tensor, torch.Tensor]:
    size = config.input_size
    coords = torch.arange(size, dtype=torch.float32)
    yy, xx = torch.meshgrid(coords, coords, indexing="ij")
    templates = torch.stack([
        torch.sin(yy * math.pi / 2),
        torch.sin(xx * math.pi / 2),
        torch.sign(torch.sin(xx * math.pi / 4) * torch.sin(yy * math.pi / 4)),
        ((xx - size / 2) ** 2 + (yy - size / 2) ** 2 < (size / 3) ** 2).float() * 2 - 1,
    ])[: config.num_classes]
    labels = torch.randint(0, config.num_classes, (n,))
    images = templates[labels].unsqueeze(1) + 0.1 * torch.randn(n, config.in_channels, size, size)
    return images.clamp(-1, 1), labels


def train(model: DiT, schedule: NoiseSchedule, data: tuple[torch.Tensor, torch.Tensor], steps: int,
          batch_size: int, lr: float) -> float:
    images, labels = data
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    model.train()
    for step in range(steps):
        idx = torch.randint(0, images.shape[0], (batch_size,))
        x0, y = images[idx], labels[idx]
        t = torch.randint(0, schedule.num_timesteps, (batch_size,))
        noise = torch.randn_like(x0)
        loss = F.mse_loss(model(schedule.q_sample(x0, t, noise), t, y), noise)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step % 20 == 0 or step == steps - 1:
            print(f"step {step:4d} | loss {loss.item():.4f}")
    return loss.item()


@torch.compile
def ddim_step(model: DiT, x: torch.Tensor, t: int, y: torch.Tensor, cfg_scale: float,
              alpha_t: float, alpha_prev: float, eta: float) -> torch.Tensor:
    t_batch = torch.full((x.shape[0],), t, dtype=torch.long, device=x.device)
    eps = model.forward_with_cfg(x, t_batch, y, cfg_scale)
    x0 = ((x - math.sqrt(1 - alpha_t) * eps) / math.sqrt(alpha_t)).clamp(-1, 1)
    sigma = eta * math.sqrt((1 - alpha_prev) / (1 - alpha_t) * (1 - alpha_t / alpha_prev))
    x_prev = math.sqrt(alpha_prev) * x0 + math.sqrt(1 - alpha_prev - sigma**2) * eps
    if eta > 0:
        x_prev = x_prev + sigma * torch.randn_like(x)
    return x_prev


@torch.no_grad()
def ddim_sample(model: DiT, schedule: NoiseSchedule, labels: torch.Tensor, num_steps: int,
                cfg_scale: float, eta: float = 0.0) -> torch.Tensor:
    cfg = model.config
    z = torch.randn(labels.shape[0], cfg.in_channels, cfg.input_size, cfg.input_size)
    x = torch.cat([z, z], dim=0)
    y = torch.cat([labels, torch.full_like(labels, cfg.num_classes)], dim=0)
    timesteps = schedule.ddim_timesteps(num_steps)
    for i, t in enumerate(timesteps):
        t_prev = timesteps[i + 1] if i + 1 < len(timesteps) else -1
        x = ddim_step(model, x, t, y, cfg_scale, schedule.alpha_bar(t), schedule.alpha_bar(t_prev), eta)
    return x[: labels.shape[0]]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-steps", type=int, default=60)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--num-timesteps", type=int, default=1000)
    parser.add_argument("--schedule", type=str, default="cosine", choices=["cosine", "linear"])
    parser.add_argument("--eta", type=float, default=0.0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(2)

    config = DiTConfig()
    model = DiT(config)
    schedule = NoiseSchedule(args.num_timesteps, args.schedule)
    print(f"DiT with {sum(p.numel() for p in model.parameters()) / 1e3:.1f}K params, {args.schedule} schedule")

    data = make_dataset(512, config)
    t0 = time.perf_counter()
    final_loss = train(model, schedule, data, args.train_steps, args.batch_size, args.lr)
    print(f"trained {args.train_steps} steps in {time.perf_counter() - t0:.1f}s, final loss {final_loss:.4f}")

    model.eval()
    labels = torch.arange(config.num_classes).repeat_interleave(2)
    class_means = torch.stack([data[0][data[1] == c].mean(0) for c in range(config.num_classes)])
    for num_steps, cfg_scale in [(10, 1.5), (20, 4.0)]:
        t0 = time.perf_counter()
        samples = ddim_sample(model, schedule, labels, num_steps, cfg_scale, args.eta)
        err = (samples - class_means[labels]).pow(2).mean().item()
        print(f"steps={num_steps:3d} cfg={cfg_scale:.1f} | mse to class mean {err:.4f} | "
              f"range [{samples.min().item():.2f}, {samples.max().item():.2f}] | {time.perf_counter() - t0:.1f}s")


if __name__ == "__main__":
    main()
