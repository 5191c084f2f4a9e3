import torch.nn as nn


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 24), nn.SiLU(), nn.Linear(24, 1))

    def forward(self, x):
        return self.net(x)
