"""Evaluate both the online model and its EMA copy through one compiled eval function."""

import copy

import torch
import torch.nn as nn


@torch.compile
def evaluate(model, x, y):
    return (model(x).argmax(-1) == y).float().mean()


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    ema = copy.deepcopy(model)
    x, y = torch.randn(64, 10), torch.randint(0, 3, (64,))
    with torch.no_grad():
        for epoch in range(2):
            for p_ema, p in zip(ema.parameters(), model.parameters()):
                p_ema.lerp_(p, 0.1)
            print(epoch, evaluate(model, x, y).item(), evaluate(ema, x, y).item())


if __name__ == "__main__":
    main()
