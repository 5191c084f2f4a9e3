import argparse
import math
import time

import torch

from config import VQVAEConfig, TrainConfig
from data import SyntheticShapes
from model import VQVAE


def warmup_cosine(step, cfg):
    if step < cfg.warmup_steps:
        return (step + 1) / cfg.warmup_steps
    t = (step - cfg.warmup_steps) / max(1, cfg.steps - cfg.warmup_steps)
    return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * t))


def commit_ramp(step, cfg):
    return min(1.0, (step + 1) / cfg.commit_ramp_steps)


@torch.no_grad()
def evaluate(model, compiled, data, tcfg):
    model.eval()
    recon, ppl = 0.0, 0.0
    for _ in range(tcfg.eval_batches):
        out = compiled(data.sample(tcfg.batch_size))
        recon += out["recon_loss"].item()
        ppl += out["perplexity"].item()
    model.train()
    return recon / tcfg.eval_batches, ppl / tcfg.eval_batches


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--ste", default=None, choices=["function", "detach"])
    args = parser.parse_args()

    tcfg = TrainConfig()
    if args.steps:
        tcfg.steps = args.steps
    overrides = dict(tcfg.overrides)
    if args.ste:
        overrides["ste"] = args.ste
    cfg = VQVAEConfig.from_dict(overrides)

    torch.manual_seed(tcfg.seed)
    train_data = SyntheticShapes(seed=tcfg.seed)
    val_data = SyntheticShapes(seed=tcfg.seed + 100)

    model = VQVAE(cfg)
    compiled = torch.compile(model)
    params = [p for p in model.parameters() if p.requires_grad]
    print(f"VQ-VAE: {sum(p.numel() for p in params)} trainable params, "
          f"{model.codebook_size} codes x {cfg.embedding_dim}, ema={cfg.use_ema}, ste={cfg.ste}")
    opt = torch.optim.Adam(params, lr=tcfg.lr)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: warmup_cosine(s, tcfg))

    t0 = time.perf_counter()
    model.train()
    for step in range(tcfg.steps):
        x = train_data.sample(tcfg.batch_size)
        cw = commit_ramp(step, tcfg)
        out = compiled(x, commit_weight=cw)
        opt.zero_grad(set_to_none=True)
        out["loss"].backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        sched.step()

        if tcfg.restart_every and (step + 1) % tcfg.restart_every == 0 and step < tcfg.steps // 2:
            with torch.no_grad():
                n = model.quantizer.restart_dead_codes(model.encoder(x))
            if n:
                print(f"  restarted {n} dead codes")

        if step % tcfg.log_every == 0:
            print(f"step {step:3d} | loss {out['loss'].item():.4f} | "
                  f"recon {out['recon_loss'].item():.4f} | ppl {out['perplexity'].item():.1f} | "
                  f"lr {sched.get_last_lr()[0]:.2e} | cw {cw:.2f} | {time.perf_counter() - t0:.1f}s")
        if (step + 1) % tcfg.eval_every == 0:
            val_recon, val_ppl = evaluate(model, compiled, val_data, tcfg)
            used = model.quantizer.usage_fraction().item()
            print(f"  eval @ {step + 1}: recon {val_recon:.4f} | ppl {val_ppl:.1f} | "
                  f"codebook usage {used:.0%}")
            model.quantizer.reset_usage()

    print(f"done in {time.perf_counter() - t0:.1f}s")


if __name__ == "__main__":
    main()
