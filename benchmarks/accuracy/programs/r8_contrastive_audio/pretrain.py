"""Contrastive pretraining of a tiny audio encoder on synthetic waveforms."""
import json
import math
import time

import torch

from augment import random_view, synth_clips
from model import AudioEncoderConfig, ContrastiveAudioEncoder, conv_out_length, info_nce

CONFIG = """
{
  "model": {
    "conv_channels": [16, 32],
    "conv_kernels": [10, 4],
    "conv_strides": [5, 2],
    "dim": 32,
    "num_heads": 4,
    "num_layers": 1,
    "mlp_ratio": 2.0,
    "dropout": 0.1,
    "proj_dim": 16,
    "pre_norm": true,
    "layer_scale": 0.1
  },
  "data": {"n_train": 64, "n_eval": 16, "clip_len": 800, "sample_rate": 8000},
  "optim": {"lr": 2e-3, "weight_decay": 0.05, "warmup": 4, "steps": 16,
            "batch_size": 8, "clip_norm": 1.0},
  "temperature": {"start": 0.2, "end": 0.07},
  "log_every": 4
}
"""


def lr_schedule(step, base_lr, warmup, total):
    if step < warmup:
        return base_lr * (step + 1) / warmup
    return base_lr * max(0.0, (total - step) / (total - warmup))


def temperature_schedule(step, total, start, end):
    frac = step / max(1, total - 1)
    return end + (start - end) * 0.5 * (1.0 + math.cos(math.pi * frac))


@torch.compile
def contrastive_step(model, wav_a, wav_b, temperature):
    # both views go through the encoder as one batch
    z = model(torch.cat([wav_a, wav_b], dim=0))
    z_a, z_b = z.chunk(2, dim=0)
    loss, acc = info_nce(z_a, z_b, temperature)
    return loss, acc


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    cfg_all = json.loads(CONFIG)
    cfg = AudioEncoderConfig.from_json(CONFIG)
    dcfg, ocfg, tcfg = cfg_all["data"], cfg_all["optim"], cfg_all["temperature"]

    model = ContrastiveAudioEncoder(cfg)
    frames = conv_out_length(dcfg["clip_len"], cfg.conv_kernels, cfg.conv_strides)
    print(f"params {sum(p.numel() for p in model.parameters())}, frames/clip {frames}")

    train_wavs = synth_clips(dcfg["n_train"], dcfg["clip_len"], dcfg["sample_rate"], gen)
    eval_wavs = synth_clips(dcfg["n_eval"], dcfg["clip_len"], dcfg["sample_rate"], gen)

    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if p.ndim < 2 or "gamma" in name else decay).append(p)
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": ocfg["weight_decay"]},
         {"params": no_decay, "weight_decay": 0.0}],
        lr=ocfg["lr"],
    )

    t0 = time.time()
    model.train()
    bs = ocfg["batch_size"]
    for step in range(ocfg["steps"]):
        lr = lr_schedule(step, ocfg["lr"], ocfg["warmup"], ocfg["steps"])
        temp = temperature_schedule(step, ocfg["steps"], tcfg["start"], tcfg["end"])
        for g in opt.param_groups:
            g["lr"] = lr
        idx = torch.randperm(dcfg["n_train"], generator=gen)[:bs]
        clean = train_wavs[idx]
        view_a = random_view(clean, gen)
        view_b = random_view(clean, gen)

        loss, acc = contrastive_step(model, view_a, view_b, temp)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), ocfg["clip_norm"])
        opt.step()
        model.steps += 1

        if model.steps % cfg_all["log_every"] == 0 or step == 0:
            print(f"step {model.steps:3d} lr {lr:.2e} temp {temp:.3f} "
                  f"loss {loss.item():.4f} acc {acc.item():.3f} gnorm {gnorm.item():.3f}")

    model.eval()
    eval_temp = tcfg["end"]
    with torch.no_grad():
        totals = {"loss": 0.0, "acc": 0.0}
        n_batches = 0
        for start in range(0, dcfg["n_eval"], bs):
            clean = eval_wavs[start:start + bs]
            loss, acc = contrastive_step(model, random_view(clean, gen), random_view(clean, gen), eval_temp)
            totals["loss"] += loss.item()
            totals["acc"] += acc.item()
            n_batches += 1
    print(f"eval loss {totals['loss'] / n_batches:.4f} top1 {totals['acc'] / n_batches:.3f} "
          f"(chance {1.0 / bs:.3f})")
    print(f"done: {model.steps} steps in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
