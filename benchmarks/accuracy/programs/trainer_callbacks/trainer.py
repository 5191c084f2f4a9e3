"""A minimal in-house Trainer: gradient accumulation, loss scaling, callbacks."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainingArguments:
    num_train_epochs: int = 2
    batch_size: int = 16
    grad_accum_steps: int = 2
    learning_rate: float = 3e-3
    warmup_steps: int = 2
    max_grad_norm: float = 1.0
    label_smoothing: float = 0.0
    log_every: int = 2
    eval_every: int = 4
    fp16: bool = False  # emulated: enables dynamic loss scaling
    bf16: bool = False  # autocast to bfloat16 inside the step
    initial_loss_scale: float = 2.0**10
    loss_scale_window: int = 3
    lr_scheduler_type: str = "cosine"


@dataclass
class TrainerState:
    epoch: int = 0
    global_step: int = 0
    max_steps: int = 0
    loss: float = float("nan")
    grad_norm: float = 0.0
    learning_rate: float = 0.0
    loss_scale: float = 1.0
    should_stop: bool = False
    log_history: list = field(default_factory=list)


class TrainerCallback:
    def on_train_begin(self, state: TrainerState) -> None: ...
    def on_step_end(self, state: TrainerState) -> None: ...
    def on_evaluate(self, state: TrainerState, metrics: dict) -> None: ...
    def on_train_end(self, state: TrainerState) -> None: ...


class PrinterCallback(TrainerCallback):
    def __init__(self, log_every: int) -> None:
        self.log_every = log_every

    def on_step_end(self, state: TrainerState) -> None:
        if state.global_step % self.log_every == 0:
            print(f"step {state.global_step}/{state.max_steps} loss {state.loss:.4f} "
                  f"lr {state.learning_rate:.2e} grad_norm {state.grad_norm:.3f} scale {state.loss_scale:g}")

    def on_evaluate(self, state: TrainerState, metrics: dict) -> None:
        print(f"eval @ step {state.global_step}: " + ", ".join(f"{k}={v:.4f}" for k, v in metrics.items()))


class EarlyStoppingCallback(TrainerCallback):
    def __init__(self, metric: str = "eval_loss", patience: int = 2) -> None:
        self.metric, self.patience = metric, patience
        self.best, self.bad_evals = math.inf, 0

    def on_evaluate(self, state: TrainerState, metrics: dict) -> None:
        if metrics[self.metric] < self.best:
            self.best, self.bad_evals = metrics[self.metric], 0
        else:
            self.bad_evals += 1
            state.should_stop = self.bad_evals >= self.patience


class Trainer:
    def __init__(self, model: nn.Module, args: TrainingArguments, train_loader: Iterable,
                 eval_loader: Iterable | None = None,
                 optimizer_factory: Callable[[Iterable[nn.Parameter]], torch.optim.Optimizer] | None = None,
                 lr_schedule: Callable[[int], float] | None = None,
                 callbacks: list[TrainerCallback] | None = None) -> None:
        self.model, self.args = model, args
        self.train_loader, self.eval_loader = train_loader, eval_loader
        factory = optimizer_factory or (lambda params: torch.optim.AdamW(params, lr=args.learning_rate))
        self.optimizer = factory(model.parameters())
        self.lr_schedule = lr_schedule or (lambda step: 1.0)
        self.callbacks = [PrinterCallback(args.log_every)] + list(callbacks or [])
        self.state = TrainerState(loss_scale=args.initial_loss_scale if args.fp16 else 1.0)
        self._good_steps = 0
        self.compiled_step = torch.compile(self.training_step)
        self.compiled_predict = torch.compile(self.prediction_step)

    def _call(self, event: str, *extra) -> None:
        for cb in self.callbacks:
            getattr(cb, event)(self.state, *extra)

    def training_step(self, model: nn.Module, batch: dict, lr: float, loss_scale: float) -> dict:
        inputs, labels = batch["pixel_values"], batch["labels"]
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.args.bf16):
            logits = model(inputs)
        loss = F.cross_entropy(logits.float(), labels, label_smoothing=self.args.label_smoothing)
        (loss * loss_scale / self.args.grad_accum_steps).backward()
        accuracy = (logits.argmax(dim=-1) == labels).float().mean()
        return {"loss": loss.detach(), "accuracy": accuracy, "learning_rate": lr}

    @torch.no_grad()
    def prediction_step(self, model: nn.Module, batch: dict) -> tuple[torch.Tensor, torch.Tensor]:
        logits = model(batch["pixel_values"])
        loss = F.cross_entropy(logits, batch["labels"], reduction="sum")
        correct = (logits.argmax(dim=-1) == batch["labels"]).sum()
        return loss, correct

    def _optimizer_step(self, lr: float) -> bool:
        params = [p for p in self.model.parameters() if p.grad is not None]
        scale = self.state.loss_scale
        if scale != 1.0:
            for p in params:
                p.grad.div_(scale)
        grad_norm = torch.nn.utils.clip_grad_norm_(params, self.args.max_grad_norm)
        if self.args.fp16 and not torch.isfinite(grad_norm):
            self.state.loss_scale = scale / 2.0
            self._good_steps = 0
            self.optimizer.zero_grad(set_to_none=True)
            return False
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        self.state.grad_norm = grad_norm.item()
        if self.args.fp16:
            self._good_steps += 1
            if self._good_steps % self.args.loss_scale_window == 0:
                self.state.loss_scale = scale * 2.0
        return True

    def evaluate(self) -> dict:
        self.model.eval()
        total_loss, total_correct, count = 0.0, 0, 0
        for batch in self.eval_loader:
            loss, correct = self.compiled_predict(self.model, batch)
            total_loss += loss.item()
            total_correct += int(correct)
            count += batch["labels"].shape[0]
        self.model.train()
        metrics = {"eval_loss": total_loss / count, "eval_accuracy": total_correct / count}
        self._call("on_evaluate", metrics)
        return metrics

    def train(self) -> TrainerState:
        args, state = self.args, self.state
        steps_per_epoch = len(self.train_loader) // args.grad_accum_steps
        state.max_steps = steps_per_epoch * args.num_train_epochs
        self.model.train()
        self._call("on_train_begin")
        running = []
        for epoch in range(args.num_train_epochs):
            state.epoch = epoch
            for micro_step, batch in enumerate(self.train_loader):
                lr = args.learning_rate * self.lr_schedule(state.global_step)
                out = self.compiled_step(self.model, batch, lr, state.loss_scale)
                running.append(out["loss"])
                if (micro_step + 1) % args.grad_accum_steps != 0:
                    continue
                if self._optimizer_step(lr):
                    state.global_step += 1
                state.loss = torch.stack(running).mean().item()
                state.learning_rate = out["learning_rate"]
                state.log_history.append({"step": state.global_step, "loss": state.loss})
                running.clear()
                self._call("on_step_end")
                if self.eval_loader is not None and state.global_step % args.eval_every == 0:
                    self.evaluate()
                if state.should_stop or state.global_step >= state.max_steps:
                    break
            if state.should_stop:
                break
        self._call("on_train_end")
        return state
