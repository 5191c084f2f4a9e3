"""The training loop tells the model which epoch it is in (for a scheduled auxiliary head)."""

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, aux_until_epoch=2):
        super().__init__()
        self.backbone = nn.Linear(10, 32)
        self.head = nn.Linear(32, 2)
        self.aux_head = nn.Linear(32, 2)
        self.current_epoch = 0
        self.aux_until_epoch = aux_until_epoch

    def forward(self, x):
        h = torch.relu(self.backbone(x))
        out = self.head(h)
        if self.current_epoch < self.aux_until_epoch:
            out = out + 0.3 * self.aux_head(h)
        return out


def main():
    torch.manual_seed(0)
    model = Net()
    compiled = torch.compile(model)
    for epoch in range(4):
        model.current_epoch = epoch
        for _ in range(2):
            out = compiled(torch.randn(4, 10))
        print(epoch, out.sum().item())


if __name__ == "__main__":
    main()
