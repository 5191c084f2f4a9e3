import argparse
import math
import random
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import accuracy, kd_loss
from models import ConvNet, count_params, student_config, teacher_config


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Distill a small CNN from a larger teacher")
    p.add_argument("--num-classes", type=int, default=10)
    p.add_argument("--image-size", type=int, default=12)
    p.add_argument("--train-size", type=int, default=384)
    p.add_argument("--val-size", type=int, default=256)
    p.add_argument("--batch-size", type=int, default=96)
    p.add_argument("--eval-batch-size", type=int, default=128)
    p.add_argument("--teacher-epochs", type=int, default=2)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--weight-decay", type=float, default=5e-4)
    p.add_argument("--t-start", type=float, default=6.0)
    p.add_argument("--t-end", type=float, default=2.0)
    p.add_argument("--alpha", type=float, default=0.7)
    p.add_argument("--label-smoothing", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--log-every", type=int, default=2)
    return p.parse_args()


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def make_data(n: int, num_classes: int, size: int, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    # class prototypes plus noise, so there is actually something to learn
    protos = torch.randn(num_classes, 3, size, size, generator=torch.Generator().manual_seed(1234))
    y = torch.randint(0, num_classes, (n,), generator=gen)
    x = protos[y] + 0.8 * torch.randn(n, 3, size, size, generator=gen)
    return x, y


def batches(x: torch.Tensor, y: torch.Tensor, bs: int, shuffle: bool, gen: torch.Generator | None = None):
    idx = torch.randperm(len(x), generator=gen) if shuffle else torch.arange(len(x))
    for i in range(0, len(x), bs):
        j = idx[i : i + bs]
        yield x[j], y[j]


def cosine(start: float, end: float, step: int, total: int) -> float:
    frac = min(step / max(total - 1, 1), 1.0)
    return end + 0.5 * (start - end) * (1 + math.cos(math.pi * frac))


@torch.no_grad()
def evaluate(model: nn.Module, x: torch.Tensor, y: torch.Tensor, bs: int) -> tuple[float, float]:
    model.eval()
    total_loss, total_acc, n = 0.0, 0.0, 0
    for xb, yb in batches(x, y, bs, shuffle=False):
        logits = model(xb)
        total_loss += F.cross_entropy(logits, yb, reduction="sum").item()
        total_acc += accuracy(logits, yb).item() * len(yb)
        n += len(yb)
    return total_loss / n, total_acc / n


def train_teacher(teacher: nn.Module, x: torch.Tensor, y: torch.Tensor, args: argparse.Namespace, gen: torch.Generator) -> None:
    opt = torch.optim.AdamW(teacher.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    for epoch in range(args.teacher_epochs):
        teacher.train()
        for xb, yb in batches(x, y, args.batch_size, shuffle=True, gen=gen):
            loss = F.cross_entropy(teacher(xb), yb, label_smoothing=args.label_smoothing)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        print(f"teacher epoch {epoch} loss {loss.item():.4f}")


def main() -> None:
    args = parse_args()
    seed_everything(args.seed)
    gen = torch.Generator().manual_seed(args.seed)

    x_train, y_train = make_data(args.train_size, args.num_classes, args.image_size, gen)
    x_val, y_val = make_data(args.val_size, args.num_classes, args.image_size, gen)

    teacher = ConvNet(teacher_config(args.num_classes))
    student = ConvNet(student_config(args.num_classes))
    print(f"teacher params: {count_params(teacher):,}  student params: {count_params(student):,}")

    t0 = time.time()
    train_teacher(teacher, x_train, y_train, args, gen)
    teacher.eval()
    teacher.requires_grad_(False)
    teacher_fwd = torch.compile(teacher)
    t_loss, t_acc = evaluate(teacher_fwd, x_val, y_val, args.eval_batch_size)
    print(f"teacher val loss {t_loss:.4f} acc {t_acc:.3f}")

    opt = torch.optim.AdamW(student.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    steps_per_epoch = math.ceil(args.train_size / args.batch_size)
    total_steps = args.epochs * steps_per_epoch

    step = 0
    for epoch in range(args.epochs):
        student.train()
        temperature = cosine(args.t_start, args.t_end, epoch, args.epochs)
        for xb, yb in batches(x_train, y_train, args.batch_size, shuffle=True, gen=gen):
            lr = cosine(args.lr, args.lr * 0.05, step, total_steps)
            for group in opt.param_groups:
                group["lr"] = lr
            # ramp alpha in over the first epoch so early steps lean on the labels
            alpha = args.alpha * min(1.0, (step + 1) / steps_per_epoch)
            with torch.no_grad():
                t_logits = teacher_fwd(xb)
            s_logits = student(xb)
            loss, soft, hard = kd_loss(s_logits, t_logits, yb, temperature, alpha, args.label_smoothing)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            if step % args.log_every == 0:
                print(
                    f"epoch {epoch} step {step:3d} T {temperature:.2f} alpha {alpha:.2f} lr {lr:.2e} "
                    f"loss {loss.item():.4f} kd {soft.item():.4f} ce {hard.item():.4f}"
                )
            step += 1
        val_loss, val_acc = evaluate(student, x_val, y_val, args.eval_batch_size)
        print(f"epoch {epoch} student val loss {val_loss:.4f} acc {val_acc:.3f}")

    print(f"done in {time.time() - t0:.1f}s, teacher acc {t_acc:.3f}, student acc {val_acc:.3f}")


if __name__ == "__main__":
    main()
