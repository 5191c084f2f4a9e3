import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    """gamma(p) = (p, sin(2^0 p), cos(2^0 p), ..., sin(2^(L-1) p), cos(2^(L-1) p))."""

    def __init__(self, in_dim, num_freqs, include_input=True, log_sampling=True):
        super().__init__()
        self.in_dim = in_dim
        self.include_input = include_input
        if log_sampling:
            self.freqs = [2.0 ** i for i in range(num_freqs)]
        else:
            hi = 2.0 ** (num_freqs - 1)
            self.freqs = [1.0 + i * (hi - 1.0) / max(1, num_freqs - 1) for i in range(num_freqs)]
        self.periodic_fns = (torch.sin, torch.cos)

    @property
    def out_dim(self):
        d = self.in_dim * len(self.freqs) * len(self.periodic_fns)
        return d + (self.in_dim if self.include_input else 0)

    def forward(self, x):
        parts = [x] if self.include_input else []
        for f in self.freqs:
            for fn in self.periodic_fns:
                parts.append(fn(x * f))
        return torch.cat(parts, dim=-1)
