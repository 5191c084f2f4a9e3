"""A compiled training step on the GPU: forward, loss, backward and optimizer step, with a
learning rate and a step counter that change between calls (what a training loop does)."""

import os

import torch
from torch import nn

DEVICE = os.environ.get("GPU_CHECK_DEVICE", "cuda")


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 64)
        self.fc2 = nn.Linear(64, 8)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


@torch.compile
def train_step(model, optimizer, x, y, scale):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y) * scale
    loss.backward()
    optimizer.step()
    return loss.detach()


def main():
    torch.manual_seed(0)
    model = MLP().to(DEVICE)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(16, 32, device=DEVICE), torch.randn(16, 8, device=DEVICE)
    for step in range(4):
        train_step(model, optimizer, x, y, 1.0 if step < 2 else 0.5)  # the loss scale changes once


if __name__ == "__main__":
    main()
