"""Fit the regressor on a synthetic dataset; StepLR schedule, early stopping."""

from __future__ import annotations

import torch
from torch import nn

from model import MLPConfig, Regressor

EPOCHS = 3
BATCHES_PER_EPOCH = 2
PATIENCE = 3


def synthetic_data(cfg: MLPConfig, n: int = 64):
    x = torch.randn(n, cfg.in_features)
    w = torch.linspace(-1, 1, cfg.in_features)
    y = (x @ w) * cfg.output_scale + 0.1 * torch.randn(n)
    return x, y


def main() -> None:
    torch.manual_seed(0)
    cfg = MLPConfig()
    model = Regressor(cfg)
    compiled = torch.compile(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    loss_fn = nn.SmoothL1Loss(beta=0.5)
    x, y = synthetic_data(cfg)
    best, bad_epochs = float("inf"), 0
    for epoch in range(EPOCHS):
        for xb, yb in zip(x.chunk(BATCHES_PER_EPOCH), y.chunk(BATCHES_PER_EPOCH)):
            loss = loss_fn(compiled(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()
        epoch_loss = loss.item()
        print(f"epoch {epoch} loss {epoch_loss:.3f} lr {scheduler.get_last_lr()[0]:.1e}")
        if epoch_loss < best - 1e-3:
            best, bad_epochs = epoch_loss, 0
        else:
            bad_epochs += 1
            if bad_epochs >= PATIENCE:
                break
    print(f"forward called {model.forward_calls} times")


if __name__ == "__main__":
    main()
