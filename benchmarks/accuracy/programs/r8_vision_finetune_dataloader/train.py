"""Fine-tune a (simulated) pretrained tiny ResNet with frozen early layers."""
import argparse
import math
import time

import torch
import torch.nn.functional as F

from data import build_loaders, random_flip
from model import ImageClassifier, VisionConfig


def cosine_with_warmup(step: int, total: int, warmup: int, base_lr: float, min_lr: float) -> float:
    if step < warmup:
        return base_lr * float(step + 1) / float(warmup)
    t = (step - warmup) / max(1, total - warmup)
    return min_lr + (base_lr - min_lr) * 0.5 * (1.0 + math.cos(math.pi * t))


def temperature_at(step: int, total: int, start: float = 2.0, end: float = 1.0) -> float:
    # logit temperature annealed from `start` to `end` over training
    frac = min(1.0, step / max(1, total - 1))
    return start + (end - start) * frac


@torch.compile
def train_step(model, images, labels, temperature: float, label_smoothing: float):
    logits = model(images)
    loss = F.cross_entropy(logits / temperature, labels, label_smoothing=label_smoothing)
    acc = (logits.argmax(dim=-1) == labels).float().mean()
    return loss, acc


def load_pretrained(model: ImageClassifier, seed: int) -> None:
    """Stand-in for loading a checkpoint: copy backbone weights from another init."""
    torch.manual_seed(seed + 1234)
    donor = ImageClassifier(model.cfg)
    model.backbone.load_state_dict(donor.backbone.state_dict(), strict=True)
    del donor


@torch.no_grad()
def validate(model, loader):
    model.eval()
    total_loss, correct, count = 0.0, 0, 0
    for images, labels in loader:
        logits = model(images)
        total_loss += F.cross_entropy(logits, labels, reduction="sum").item()
        correct += (logits.argmax(-1) == labels).sum().item()
        count += labels.shape[0]
    model.train()
    model.set_frozen_bn_eval()
    return total_loss / count, correct / count


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--warmup-steps", type=int, default=3)
    parser.add_argument("--freeze-stages", type=int, default=1)
    parser.add_argument("--label-smoothing", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    cfg = VisionConfig()
    torch.manual_seed(args.seed)
    model = ImageClassifier(cfg)
    load_pretrained(model, args.seed)
    model.freeze_early_layers(args.freeze_stages)

    n_trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    n_total = sum(p.numel() for p in model.parameters())
    print(f"trainable params: {n_trainable}/{n_total}")

    train_loader, val_loader = build_loaders(cfg, args.batch_size, args.seed)
    total_steps = args.epochs * len(train_loader)
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad],
                                  lr=args.lr, weight_decay=0.05)
    compiled_eval_model = torch.compile(model)
    aug_gen = torch.Generator().manual_seed(args.seed + 7)

    model.train()
    model.set_frozen_bn_eval()
    step = 0
    t0 = time.time()
    for epoch in range(args.epochs):
        running, n_batches = 0.0, 0
        for images, labels in train_loader:
            lr = cosine_with_warmup(step, total_steps, args.warmup_steps, args.lr, args.lr * 0.05)
            for group in optimizer.param_groups:
                group["lr"] = lr
            temp = temperature_at(step, total_steps)
            images = random_flip(images, aug_gen)

            loss, acc = train_step(model, images, labels, temp, args.label_smoothing)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()

            running += loss.item()
            n_batches += 1
            step += 1
            print(f"epoch {epoch} step {step:2d} bs {labels.shape[0]:2d} lr {lr:.2e} T {temp:.2f} "
                  f"loss {loss.item():.4f} acc {acc.item():.3f}")

        val_loss, val_acc = validate(compiled_eval_model, val_loader)
        print(f"== epoch {epoch} train_loss {running / n_batches:.4f} val_loss {val_loss:.4f} val_acc {val_acc:.3f}")

    print(f"done in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
