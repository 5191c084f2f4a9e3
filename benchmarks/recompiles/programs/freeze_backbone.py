"""Linear probing, then fine-tuning: the backbone's parameters are unfrozen after the first epoch."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(16, 32)
        self.classifier = nn.Linear(32, 4)

    def forward(self, x):
        return self.classifier(torch.relu(self.backbone(x)))


def main():
    torch.manual_seed(0)
    model = Model()
    compiled = torch.compile(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(3):
        for p in model.backbone.parameters():
            p.requires_grad_(epoch > 0)
        loss = compiled(torch.randn(8, 16)).logsumexp(-1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
