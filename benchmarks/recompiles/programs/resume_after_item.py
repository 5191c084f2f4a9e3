"""Gradient-norm logging inside the compiled step: .item() breaks the graph and the
Python float is used after it."""

import torch
import torch.nn as nn


@torch.compile
def step(model, x, y, max_norm):
    loss = (model(x) - y).pow(2).mean()
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm).item()
    scale = 1.0 if norm < max_norm else max_norm / norm
    return loss * scale


def main():
    torch.manual_seed(0)
    model = nn.Linear(8, 1)
    for i in range(4):
        loss = step(model, torch.randn(16, 8), torch.randn(16, 1), 0.5)
        print(i, loss.item())


if __name__ == "__main__":
    main()
