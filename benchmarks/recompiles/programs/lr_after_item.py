"""Compiled step that logs the loss with .item() and then applies an SGD update with a decaying LR."""

import torch
import torch.nn as nn
import torch.nn.functional as F

history = []


@torch.compile
def train_step(model, x, y, lr):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    history.append(loss.item())
    with torch.no_grad():
        for p in model.parameters():
            p.add_(p.grad, alpha=-lr)
            p.grad = None
    return loss.detach()


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(12, 24), nn.Tanh(), nn.Linear(24, 3))
    lr = 0.01
    for step in range(6):
        train_step(model, torch.randn(16, 12), torch.randint(0, 3, (16,)), lr)
        lr = lr * 0.9
    print([round(v, 3) for v in history])


if __name__ == "__main__":
    main()
