"""A compiled loss that ramps an auxiliary term with the global step."""

import torch
import torch.nn.functional as F

WARMUP_STEPS = 3


@torch.compile
def total_loss(logits, targets, aux, step):
    ramp = min(1.0, step / WARMUP_STEPS)
    return F.cross_entropy(logits, targets) + ramp * 0.1 * aux.pow(2).mean()


def main():
    torch.manual_seed(0)
    for step in range(6):
        loss = total_loss(torch.randn(8, 5), torch.randint(0, 5, (8,)), torch.randn(8, 16), step)
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
