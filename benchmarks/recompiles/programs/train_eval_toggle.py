"""Alternate training and evaluation of a compiled model with dropout and batch norm."""

import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(12, 48), nn.BatchNorm1d(48), nn.ReLU(), nn.Dropout(0.2), nn.Linear(48, 1))
    compiled = torch.compile(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        model.train()
        loss = compiled(torch.randn(32, 12)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            val = compiled(torch.randn(32, 12)).pow(2).mean()
        print(f"epoch {epoch} train {loss.item():.3f} val {val.item():.3f}")


if __name__ == "__main__":
    main()
