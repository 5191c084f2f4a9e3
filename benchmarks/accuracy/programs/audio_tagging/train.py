from __future__ import annotations

import argparse
import math
import random

import numpy as np
import torch
import torch.nn.functional as F

from features import mixup
from model import AudioTagger, TaggerConfig

CLASS_FREQS = [250.0, 500.0, 900.0, 1400.0, 2000.0, 2800.0]


def synth_dataset(n: int, num_samples: int, sample_rate: int) -> tuple[torch.Tensor, torch.Tensor]:
    t = torch.arange(num_samples) / sample_rate
    waves = 0.05 * torch.randn(n, num_samples)
    labels = torch.zeros(n, len(CLASS_FREQS))
    for i in range(n):
        for c in random.sample(range(len(CLASS_FREQS)), random.randint(1, 3)):
            dur = random.randint(num_samples // 8, num_samples // 2)
            onset = random.randint(0, num_samples - dur)
            freq = CLASS_FREQS[c] * random.uniform(0.95, 1.05)
            tone = torch.sin(2 * math.pi * freq * t[:dur]) + 0.3 * torch.sin(4 * math.pi * freq * t[:dur])
            waves[i, onset:onset + dur] += random.uniform(0.2, 1.0) * tone * torch.hann_window(dur)
            labels[i, c] = 1.0
    return waves, labels


def average_precision(scores: np.ndarray, labels: np.ndarray) -> float:
    order = np.argsort(-scores, kind="stable")
    hits = labels[order]
    if hits.sum() == 0:
        return float("nan")
    precision = np.cumsum(hits) / np.arange(1, len(hits) + 1)
    return float((precision * hits).sum() / hits.sum())


def tagging_metrics(scores: np.ndarray, labels: np.ndarray, threshold: float = 0.5) -> dict[str, float]:
    aps = np.array([average_precision(scores[:, c], labels[:, c]) for c in range(labels.shape[1])])
    preds = scores >= threshold
    tp = float((preds & (labels > 0)).sum())
    f1 = 2 * tp / max(1.0, float(preds.sum() + labels.sum()))
    return {"mAP": float(np.nanmean(aps)), "micro_f1": f1, "min_ap": float(np.nanmin(aps))}


@torch.no_grad()
def evaluate(
    model: torch.nn.Module, waves: torch.Tensor, labels: torch.Tensor, batch_size: int
) -> dict[str, float]:
    model.eval()
    scores = [torch.sigmoid(model(chunk)).numpy() for chunk in waves.split(batch_size)]
    model.train()
    return tagging_metrics(np.concatenate(scores), labels.numpy())


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description="tiny audio tagger on synthetic tone events")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--sample-rate", type=int, default=8000)
    p.add_argument("--train-clips", type=int, default=96)
    p.add_argument("--eval-clips", type=int, default=48)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--lr", type=float, default=5e-3)
    p.add_argument("--mixup-alpha", type=float, default=0.4)
    p.add_argument("--pooling", choices=["attention", "max", "max_mean"], default="attention")
    p.add_argument("--time-mask", type=int, default=6)
    p.add_argument("--freq-mask", type=int, default=4)
    p.add_argument("--no-compile", dest="compile", action="store_false")
    return p.parse_args()


def main() -> None:
    args = parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)

    num_samples = args.sample_rate // 2
    train_x, train_y = synth_dataset(args.train_clips, num_samples, args.sample_rate)
    eval_x, eval_y = synth_dataset(args.eval_clips, num_samples, args.sample_rate)

    cfg = TaggerConfig(
        sample_rate=args.sample_rate, num_classes=len(CLASS_FREQS), pooling=args.pooling,
        time_mask_width=args.time_mask, freq_mask_width=args.freq_mask,
    )
    model = AudioTagger(cfg)
    print(f"params: {sum(p.numel() for p in model.parameters()):,}")
    if args.compile:
        model.compile()

    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps_per_epoch = args.train_clips // args.batch_size
    scheduler = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=args.lr, total_steps=args.epochs * steps_per_epoch, pct_start=0.2
    )

    step = 0
    for epoch in range(args.epochs):
        perm = torch.randperm(args.train_clips)
        running = 0.0
        for b in range(steps_per_epoch):
            idx = perm[b * args.batch_size:(b + 1) * args.batch_size]
            wave, target, lam = mixup(train_x[idx], train_y[idx], args.mixup_alpha)
            logits = model(wave)
            loss = F.binary_cross_entropy_with_logits(logits, target)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
            scheduler.step()
            running += loss.item()
            step += 1
            if step % 4 == 0:
                print(f"epoch {epoch} step {step:3d} | loss {running / (b + 1):.4f} | lam {lam:.2f} "
                      f"| lr {scheduler.get_last_lr()[0]:.2e}")
        metrics = evaluate(model, eval_x, eval_y, args.batch_size)
        print(f"epoch {epoch} eval | mAP {metrics['mAP']:.3f} | micro-F1 {metrics['micro_f1']:.3f} "
              f"| worst AP {metrics['min_ap']:.3f}")


if __name__ == "__main__":
    main()
