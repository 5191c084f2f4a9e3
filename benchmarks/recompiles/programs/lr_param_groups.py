"""Compiled model, cosine LR applied through the optimizer's param_groups (outside the compiled code)."""

import math

import torch
import torch.nn as nn


def cosine_lr(step, total, peak=1e-3, floor=1e-5):
    return floor + 0.5 * (peak - floor) * (1 + math.cos(math.pi * step / total))


class Classifier(nn.Module):
    def __init__(self, features=10, hidden=32, classes=2):
        super().__init__()
        self.fc1 = nn.Linear(features, hidden)
        self.fc2 = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc2(torch.nn.functional.gelu(self.fc1(x)))


def main():
    torch.manual_seed(0)
    model = Classifier()
    opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    compiled = torch.compile(model)
    for step in range(5):
        for group in opt.param_groups:
            group["lr"] = cosine_lr(step, 5)
        loss = compiled(torch.randn(8, 10)).logsumexp(-1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"final lr {opt.param_groups[0]['lr']:.2e}")


if __name__ == "__main__":
    main()
