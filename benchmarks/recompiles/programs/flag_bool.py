"""One compiled forward for both training and validation, switched by a bool argument."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))

    def forward(self, x, y, return_loss):
        logits = self.body(x)
        if return_loss:
            return F.cross_entropy(logits, y)
        return logits.argmax(-1)


def main():
    torch.manual_seed(0)
    net = torch.compile(Net())
    for epoch in range(3):
        x, y = torch.randn(16, 20), torch.randint(0, 4, (16,))
        loss = net(x, y, True)
        preds = net(x, y, False)
        print(epoch, loss.item(), (preds == y).float().mean().item())


if __name__ == "__main__":
    main()
