"""Train the small GPT on random tokens with a warmup + cosine schedule."""

from __future__ import annotations

import math
import time

import torch

from model import GPT, GPTConfig

# config values, overridable on the command line in the original script
batch_size = 4
block_size = 16
learning_rate = 6e-4
min_lr = 6e-5
warmup_iters = 2
lr_decay_iters = 8
max_iters = 6
grad_clip = 1.0
log_interval = 2
eval_interval = 3


def get_lr(it: int) -> float:
    if it < warmup_iters:
        return learning_rate * (it + 1) / (warmup_iters + 1)
    if it > lr_decay_iters:
        return min_lr
    decay_ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
    return min_lr + coeff * (learning_rate - min_lr)


def get_batch(vocab_size: int) -> tuple[torch.Tensor, torch.Tensor]:
    data = torch.randint(0, vocab_size, (batch_size, block_size + 1))
    return data[:, :-1].contiguous(), data[:, 1:].contiguous()


@torch.no_grad()
def estimate_loss(model: torch.nn.Module, vocab_size: int) -> float:
    model.eval()
    losses = torch.zeros(2)
    for k in range(2):
        x, y = get_batch(vocab_size)
        _, loss = model(x, y)
        losses[k] = loss.item()
    model.train()
    return losses.mean().item()


def main() -> None:
    torch.manual_seed(1337)
    config = GPTConfig(block_size=32, n_layer=2, n_head=4, n_embd=64)
    model = GPT(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=0.1)
    model = torch.compile(model)
    t0 = time.time()
    for it in range(max_iters):
        lr = get_lr(it)
        for group in optimizer.param_groups:
            group["lr"] = lr
        if it > 0 and it % eval_interval == 0:
            print(f"step {it}: val loss {estimate_loss(model, config.vocab_size):.4f}")
        x, y = get_batch(config.vocab_size)
        _, loss = model(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if it % log_interval == 0:
            dt = time.time() - t0
            t0 = time.time()
            print(f"iter {it}: loss {loss.item():.4f}, lr {lr:.2e}, time {dt * 1000:.0f}ms")


if __name__ == "__main__":
    main()
