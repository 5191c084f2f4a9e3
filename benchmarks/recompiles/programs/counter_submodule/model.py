import torch
import torch.nn as nn


class StochasticDepth(nn.Module):
    """Drops the residual branch with a probability that grows with the number of calls."""

    def __init__(self, max_drop=0.2, ramp_calls=1000):
        super().__init__()
        self.max_drop = max_drop
        self.ramp_calls = ramp_calls
        self.calls = 0

    def forward(self, branch):
        self.calls += 1
        if not self.training:
            return branch
        p = self.max_drop * min(1.0, self.calls / self.ramp_calls)
        keep = (torch.rand(branch.shape[0], 1) >= p).to(branch.dtype)
        return branch * keep / (1 - p)


class ResNetMLP(nn.Module):
    def __init__(self, dim=32, depth=2):
        super().__init__()
        self.layers = nn.ModuleList(nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU())
                                    for _ in range(depth))
        self.drop_path = StochasticDepth()
        self.out = nn.Linear(dim, 1)

    def forward(self, x):
        for layer in self.layers:
            x = x + self.drop_path(layer(x))
        return self.out(x)
