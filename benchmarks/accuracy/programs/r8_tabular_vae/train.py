"""Train a small tabular VAE with KL annealing and a warmup+cosine LR schedule."""
import argparse
import math
import time

import torch

from data import iterate_minibatches, make_tabular_dataset, standardize
from model import TabularVAE, TabularVAEConfig


def lr_at(step: int, total_steps: int, base_lr: float, warmup: int, min_lr: float) -> float:
    if step < warmup:
        return base_lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, total_steps - warmup)
    return min_lr + 0.5 * (base_lr - min_lr) * (1.0 + math.cos(math.pi * progress))


def kl_beta_at(step: int, anneal_steps: int, max_beta: float) -> float:
    # linear KL warm-up (a.k.a. "beta annealing")
    return max_beta * min(1.0, step / max(1, anneal_steps))


@torch.no_grad()
def evaluate(model, x_num, x_cat, beta: float):
    model.eval()
    loss, num_nll, cat_nll, kl = model(x_num, x_cat, beta)
    model.train()
    return loss.item(), num_nll.item(), cat_nll.item(), kl.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=24)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--warmup", type=int, default=4)
    parser.add_argument("--kl-anneal", type=int, default=12)
    parser.add_argument("--max-beta", type=float, default=1.0)
    parser.add_argument("--eval-every", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    cfg = TabularVAEConfig()
    x_num, x_cat = make_tabular_dataset(cfg, n_rows=512, seed=args.seed)
    n_train = 448
    tr_num, va_num = standardize(x_num[:n_train], x_num[n_train:])
    tr_cat, va_cat = x_cat[:n_train], x_cat[n_train:]

    model = TabularVAE(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    compiled_model = torch.compile(model)

    data_gen = torch.Generator().manual_seed(args.seed + 1)
    step = 0
    t0 = time.time()
    while step < args.steps:
        for b_num, b_cat in iterate_minibatches(tr_num, tr_cat, args.batch_size, data_gen):
            if step >= args.steps:
                break
            lr = lr_at(step, args.steps, args.lr, args.warmup, args.lr * 0.1)
            for group in optimizer.param_groups:
                group["lr"] = lr
            beta = kl_beta_at(step, args.kl_anneal, args.max_beta)

            loss, num_nll, cat_nll, kl = compiled_model(b_num, b_cat, beta)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            step += 1

            if step % 4 == 0:
                print(f"step {step:3d} lr {lr:.2e} beta {beta:.3f} loss {loss.item():.4f} "
                      f"num {num_nll.item():.3f} cat {cat_nll.item():.3f} kl {kl.item():.3f}")
            if step % args.eval_every == 0:
                v = evaluate(compiled_model, va_num, va_cat, beta)
                print(f"  [val] step {step} loss {v[0]:.4f} num {v[1]:.3f} cat {v[2]:.3f} kl {v[3]:.3f}")

    final = evaluate(compiled_model, va_num, va_cat, args.max_beta)
    print(f"final val loss {final[0]:.4f}  ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
