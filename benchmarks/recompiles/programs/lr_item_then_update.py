"""Compiled step that reads the loss as a Python float, then applies SGD with a decaying LR."""

import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.compile
def train_step(model, x, y, lr):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    loss_value = loss.item()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(p.grad, alpha=-lr)
            p.grad = None
    return loss_value


def main():
    torch.manual_seed(0)
    model = nn.Linear(12, 3)
    lr = 0.01
    for step in range(6):
        loss = train_step(model, torch.randn(16, 12), torch.randint(0, 3, (16,)), lr)
        lr = lr * 0.9
        print(step, round(loss, 4))


if __name__ == "__main__":
    main()
