"""A DataLoader without drop_last: the final batch of each epoch is smaller."""

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Regressor(nn.Module):
    def __init__(self, features=6, hidden=16):
        super().__init__()
        self.hidden = nn.Linear(features, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


def main():
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(40, 6), torch.randn(40, 1))
    loader = DataLoader(data, batch_size=16, shuffle=False)
    model = Regressor()
    compiled = torch.compile(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(2):
        for x, y in loader:
            loss = nn.functional.mse_loss(compiled(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
