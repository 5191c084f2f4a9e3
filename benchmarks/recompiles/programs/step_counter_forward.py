"""A model that counts its forward calls to drive a warmup of its residual scale."""

import torch
import torch.nn as nn


class WarmupResidual(nn.Module):
    def __init__(self, dim, warmup_steps=100):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)
        self.warmup_steps = warmup_steps
        self.num_updates = 0

    def forward(self, x):
        if self.training:
            self.num_updates += 1
        alpha = min(1.0, self.num_updates / self.warmup_steps)
        return self.norm(x + alpha * self.fc(x))


def main():
    torch.manual_seed(0)
    model = torch.compile(WarmupResidual(32))
    for step in range(10):
        out = model(torch.randn(4, 32))
    print(f"{model.num_updates} updates, out {out.mean().item():.4f}")


if __name__ == "__main__":
    main()
