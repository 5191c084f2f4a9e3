"""A training state dict (step, loss scale) passed into the compiled step."""

import torch
import torch.nn as nn


@torch.compile
def scaled_loss(model, batch, state):
    loss = model(batch).pow(2).mean()
    warm = min(1.0, (state["step"] + 1) / state["warmup"])
    return loss * state["loss_scale"] * warm


def main():
    torch.manual_seed(0)
    model = nn.Linear(4, 4)
    state = {"step": 0, "warmup": 4, "loss_scale": 1024.0}
    for _ in range(5):
        loss = scaled_loss(model, torch.randn(8, 4), state)
        state["step"] += 1
        print(state["step"], loss.item())


if __name__ == "__main__":
    main()
