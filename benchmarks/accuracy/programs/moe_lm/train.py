"""Train the MoE language model; gradient accumulation and clipping."""

from __future__ import annotations

import torch

from model import MoEConfig, MoELanguageModel

STEPS = 4
ACCUMULATION = 2
CLIP = 1.0


def batches(cfg: MoEConfig, batch: int = 4, seq: int = 12):
    while True:
        data = torch.randint(0, cfg.vocab_size, (batch, seq + 1))
        yield data[:, :-1], data[:, 1:]


def train_step(model, optimizer, data, accumulation: int):
    total = 0.0
    for _ in range(accumulation):
        tokens, targets = next(data)
        _, loss = model(tokens, targets)
        (loss / accumulation).backward()
        total += loss.item() / accumulation
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
    optimizer.step()
    optimizer.zero_grad()
    return total, grad_norm.item()


def main() -> None:
    torch.manual_seed(0)
    cfg = MoEConfig()
    model = MoELanguageModel(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model.compile()
    data = batches(cfg)
    for step in range(STEPS):
        loss, norm = train_step(model, optimizer, data, ACCUMULATION)
        print(f"step {step} loss {loss:.4f} grad-norm {norm:.3f}")


if __name__ == "__main__":
    main()
