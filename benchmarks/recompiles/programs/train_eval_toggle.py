"""Alternate training and evaluation of a compiled model with dropout and batch norm."""

import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, features=12, hidden=48, dropout=0.2):
        super().__init__()
        self.fc1 = nn.Linear(features, hidden)
        self.bn = nn.BatchNorm1d(hidden)
        self.drop = nn.Dropout(dropout)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.fc2(self.drop(torch.relu(self.bn(self.fc1(x)))))


def main():
    torch.manual_seed(0)
    model = MLP()
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
