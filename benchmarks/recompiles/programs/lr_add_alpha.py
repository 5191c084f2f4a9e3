"""Compiled training step: forward, backward, an in-place SGD update with an exponentially decaying LR."""

import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.compile
def train_step(model, x, y, lr):
    loss = F.mse_loss(model(x), y)
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(p.grad, alpha=-lr)
            p.grad = None
    return loss


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    lr = 0.01
    for step in range(5):
        x, y = torch.randn(16, 8), torch.randn(16, 1)
        loss = train_step(model, x, y, lr)
        lr *= 0.9
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
