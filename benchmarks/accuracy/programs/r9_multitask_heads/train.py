import argparse
import functools
import math
import random
import time

import torch

from data import SyntheticCustomers
from mtl import MTLConfig, MultiTaskNet, UncertaintyWeighting, task_loss


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        out = fn(*args, **kwargs)
        wrapper.last_seconds = time.perf_counter() - t0
        return out
    wrapper.last_seconds = 0.0
    return wrapper


def cosine_lr(step, total, base, warmup=10):
    if step < warmup:
        return base * (step + 1) / warmup
    p = (step - warmup) / max(1, total - warmup)
    return base * 0.5 * (1.0 + math.cos(math.pi * p))


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--preset", default="small", choices=["tiny", "small", "base"])
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--schedule", default="round_robin", choices=["round_robin", "sample"])
    ap.add_argument("--seed", type=int, default=0)
    return ap.parse_args()


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    cfg = getattr(MTLConfig, args.preset)()
    data = SyntheticCustomers(cfg, n=1024, seed=args.seed)

    model = MultiTaskNet(cfg)
    weighting = UncertaintyWeighting(cfg.task_names, enabled=cfg.use_uncertainty)
    opt = torch.optim.AdamW(list(model.parameters()) + list(weighting.parameters()),
                            lr=args.lr, weight_decay=0.01)
    print(f"model params: {model.num_params}  tasks: {cfg.task_names}")

    cmodel = torch.compile(model)

    def train_step(numeric, cats, mask, target, task, loss_weight, smoothing):
        pred = cmodel(numeric, cats, mask, task)
        raw = task_loss(cfg.tasks[task].kind, pred, target, label_smoothing=smoothing)
        total = weighting(raw, task) * loss_weight
        opt.zero_grad(set_to_none=True)
        total.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        return raw.detach()

    @timed
    @torch.compile
    def evaluate(numeric, cats, mask, task):
        out = model(numeric, cats, mask, task)
        kind = cfg.tasks[task].kind
        if kind == "cls":
            return out.argmax(-1)
        return out

    task_names = cfg.task_names
    task_weights = [cfg.tasks[t].weight for t in task_names]
    running = {t: 0.0 for t in task_names}
    model.train()
    for step in range(args.steps):
        if args.schedule == "round_robin":
            task = task_names[step % len(task_names)]
        else:
            task = rng.choices(task_names, weights=task_weights)[0]
        lr = cosine_lr(step, args.steps, args.lr)
        for group in opt.param_groups:
            group["lr"] = lr
        smoothing = 0.1 if step < args.steps // 2 else 0.0
        numeric, cats, mask, target = data.batch(task, args.batch_size)
        raw = train_step(numeric, cats, mask, target, task, cfg.tasks[task].weight, smoothing)
        running[task] = 0.9 * running[task] + 0.1 * raw.item()
        if step % 15 == 0 or step == args.steps - 1:
            msg = " ".join(f"{t}={v:.3f}" for t, v in running.items())
            print(f"step {step:3d} lr {lr:.2e} [{task}] {msg}")

    model.eval()
    _, val_idx = data.split()
    idx = torch.tensor(list(val_idx))
    numeric, cats, mask = data.numeric[idx], data.cats[idx], data.mask[idx]
    with torch.no_grad():
        for task in task_names:
            pred = evaluate(numeric, cats, mask, task)
            target = data.targets[task][idx]
            kind = cfg.tasks[task].kind
            if kind == "cls":
                metric = (pred == target).float().mean().item()
                name = "acc"
            elif kind == "reg":
                metric = (pred - target).abs().mean().item()
                name = "mae"
            else:
                s = pred.argsort().argsort().float()
                r = target.argsort().argsort().float()
                metric = torch.corrcoef(torch.stack([s, r]))[0, 1].item()
                name = "spearman"
            print(f"eval {task:10s} {name}={metric:.3f} ({evaluate.last_seconds * 1e3:.1f} ms)")
    w = weighting.weights()
    print("uncertainty weights: " + " ".join(f"{k}={v:.3f}" for k, v in w.items()))
    print(f"forward calls: {model.calls}")


if __name__ == "__main__":
    main()
