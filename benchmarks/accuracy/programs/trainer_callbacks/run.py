"""Fine-tune an MLP-Mixer on a synthetic 10-class image task with the in-house Trainer."""

from __future__ import annotations

import math
import time

import torch
from torch.utils.data import DataLoader, Dataset

from model import MlpMixer
from trainer import EarlyStoppingCallback, Trainer, TrainerCallback, TrainerState, TrainingArguments


class PrototypeImages(Dataset):
    """Each class is a fixed random 'prototype' image; samples are noisy copies."""

    def __init__(self, n: int, num_classes: int = 10, image_size: int = 16, noise: float = 0.8, seed: int = 0):
        g = torch.Generator().manual_seed(seed)
        self.prototypes = torch.randn(num_classes, 3, image_size, image_size, generator=torch.Generator().manual_seed(123))
        self.labels = torch.randint(0, num_classes, (n,), generator=g)
        self.images = self.prototypes[self.labels] + noise * torch.randn(n, 3, image_size, image_size, generator=g)

    def __len__(self) -> int:
        return self.labels.shape[0]

    def __getitem__(self, idx: int) -> dict:
        return {"pixel_values": self.images[idx], "labels": self.labels[idx]}


def cosine_with_warmup(step: int, *, warmup_steps: int, total_steps: int, min_ratio: float = 0.1) -> float:
    if step < warmup_steps:
        return float(step + 1) / float(max(1, warmup_steps))
    progress = (step - warmup_steps) / max(1, total_steps - warmup_steps)
    return min_ratio + (1.0 - min_ratio) * 0.5 * (1.0 + math.cos(math.pi * min(progress, 1.0)))


def linear_with_warmup(step: int, *, warmup_steps: int, total_steps: int) -> float:
    if step < warmup_steps:
        return float(step + 1) / float(max(1, warmup_steps))
    return max(0.0, (total_steps - step) / max(1, total_steps - warmup_steps))


SCHEDULES = {"cosine": cosine_with_warmup, "linear": linear_with_warmup}


class ThroughputCallback(TrainerCallback):
    def on_train_begin(self, state: TrainerState) -> None:
        self.t0 = time.perf_counter()

    def on_train_end(self, state: TrainerState) -> None:
        elapsed = time.perf_counter() - self.t0
        print(f"trained {state.global_step} steps in {elapsed:.1f}s ({state.global_step / elapsed:.2f} steps/s)")


class LossSpikeCallback(TrainerCallback):
    def __init__(self, factor: float = 3.0) -> None:
        self.factor = factor
        self.ema: float | None = None

    def on_step_end(self, state: TrainerState) -> None:
        if self.ema is not None and state.loss > self.factor * self.ema:
            print(f"  [warn] loss spike at step {state.global_step}: {state.loss:.3f} vs ema {self.ema:.3f}")
        self.ema = state.loss if self.ema is None else 0.9 * self.ema + 0.1 * state.loss


def main() -> None:
    torch.manual_seed(0)
    model_config = {"image_size": 16, "patch_size": 4, "hidden_dim": 32, "depth": 2, "num_classes": 10,
                    "dropout": 0.1, "stochastic_depth": 0.1}
    args = TrainingArguments(
        num_train_epochs=2,
        batch_size=16,
        grad_accum_steps=2,
        learning_rate=3e-3,
        warmup_steps=2,
        max_grad_norm=1.0,
        label_smoothing=0.1,
        log_every=2,
        eval_every=4,
        fp16=True,
        bf16=False,
        initial_loss_scale=2.0**10,
        loss_scale_window=3,
        lr_scheduler_type="cosine",
    )
    train_ds = PrototypeImages(192, seed=0)
    eval_ds = PrototypeImages(64, seed=1)
    train_loader = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True, drop_last=True,
                              generator=torch.Generator().manual_seed(0))
    eval_loader = DataLoader(eval_ds, batch_size=32)

    model = MlpMixer(model_config)
    print(f"model: {model.num_parameters():,} parameters")
    total_steps = len(train_loader) // args.grad_accum_steps * args.num_train_epochs
    schedule_fn = SCHEDULES[args.lr_scheduler_type]

    def lr_schedule(step: int) -> float:
        return schedule_fn(step, warmup_steps=args.warmup_steps, total_steps=total_steps)

    def optimizer_factory(params):
        return torch.optim.AdamW(params, lr=args.learning_rate, betas=(0.9, 0.98), weight_decay=0.05)

    trainer = Trainer(
        model,
        args,
        train_loader,
        eval_loader,
        optimizer_factory=optimizer_factory,
        lr_schedule=lr_schedule,
        callbacks=[EarlyStoppingCallback(patience=3), LossSpikeCallback(), ThroughputCallback()],
    )
    state = trainer.train()
    final = trainer.evaluate()
    print(f"final: loss {state.loss:.4f}, eval_accuracy {final['eval_accuracy']:.3f}, "
          f"loss_scale {state.loss_scale:g}, history {len(state.log_history)} entries")


if __name__ == "__main__":
    main()
