"""Variable batch sizes with the batch dimension marked dynamic before the first call."""

import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    model = torch.compile(nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 4)))
    for batch in (8, 3, 17, 8):
        x = torch.randn(batch, 16)
        torch._dynamo.mark_dynamic(x, 0)
        print(batch, model(x).shape)


if __name__ == "__main__":
    main()
