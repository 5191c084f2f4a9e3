"""Gradient accumulation: a bool tells the compiled step whether this micro-batch ends the window."""

import torch
import torch.nn as nn

ACCUM = 2


@torch.compile
def micro_step(model, x, y, is_last_micro_batch):
    loss = nn.functional.mse_loss(model(x), y) / ACCUM
    loss.backward()
    if is_last_micro_batch:
        with torch.no_grad():
            for p in model.parameters():
                p -= 0.01 * p.grad
                p.grad.zero_()
    return loss.detach()


def main():
    torch.manual_seed(0)
    model = nn.Linear(5, 1)
    for i in range(6):
        loss = micro_step(model, torch.randn(4, 5), torch.randn(4, 1), (i + 1) % ACCUM == 0)
        print(i, loss.item())


if __name__ == "__main__":
    main()
