"""Compiled model, cosine LR applied through the optimizer's param_groups (outside the compiled code)."""

import math

import torch
import torch.nn as nn


def cosine_lr(step, total, peak=1e-3, floor=1e-5):
    return floor + 0.5 * (peak - floor) * (1 + math.cos(math.pi * step / total))


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.GELU(), nn.Linear(32, 2))
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
