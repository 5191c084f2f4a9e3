"""Contrastive (InfoNCE) head whose temperature is annealed by setting a module attribute."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class ContrastiveHead(nn.Module):
    def __init__(self, dim, proj_dim=32, temperature=0.5):
        super().__init__()
        self.proj = nn.Linear(dim, proj_dim)
        self.temperature = temperature

    def forward(self, a, b):
        za = F.normalize(self.proj(a), dim=-1)
        zb = F.normalize(self.proj(b), dim=-1)
        logits = za @ zb.t() / self.temperature
        labels = torch.arange(a.shape[0])
        return F.cross_entropy(logits, labels)


def main():
    torch.manual_seed(0)
    head = ContrastiveHead(64)
    compiled = torch.compile(head)
    for epoch in range(4):
        head.temperature = 0.5 - 0.1 * epoch
        loss = compiled(torch.randn(16, 64), torch.randn(16, 64))
        print(f"epoch {epoch} tau={head.temperature:.1f} loss={loss.item():.3f}")


if __name__ == "__main__":
    main()
