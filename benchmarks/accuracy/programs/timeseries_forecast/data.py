"""Synthetic seasonal + trend series and sliding-window batching."""

from __future__ import annotations

import math

import torch


def make_series(length: int, n_series: int = 4, period: float = 12.0, noise: float = 0.05,
                seed: int = 0) -> torch.Tensor:
    """Returns ``(n_series, length)``: a linear/quadratic trend plus two harmonics plus noise."""
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(length, dtype=torch.float32)
    series = []
    for i in range(n_series):
        slope = 0.01 * (i + 1)
        curvature = 1e-5 * (i % 2)
        amp = 1.0 + 0.25 * i
        phase = torch.rand(1, generator=g).item() * 2 * math.pi
        y = slope * t + curvature * t ** 2
        y = y + amp * torch.sin(2 * math.pi * t / period + phase)
        y = y + 0.3 * amp * torch.sin(4 * math.pi * t / period)
        y = y + noise * torch.randn(length, generator=g)
        series.append(y)
    return torch.stack(series)


def sliding_windows(series: torch.Tensor, lookback: int, horizon: int, stride: int = 1):
    """Cut every series into (lookback, horizon) pairs. Returns (x, y) of shape (N, lookback), (N, horizon)."""
    window = lookback + horizon
    xs, ys = [], []
    for s in series:
        windows = s.unfold(0, window, stride)       # (num_windows, window)
        xs.append(windows[:, :lookback])
        ys.append(windows[:, lookback:])
    return torch.cat(xs), torch.cat(ys)


class WindowDataset:
    def __init__(self, series: torch.Tensor, lookback: int, horizon: int, stride: int = 1,
                 normalize: bool = True) -> None:
        self.lookback = lookback
        self.horizon = horizon
        x, y = sliding_windows(series, lookback, horizon, stride)
        if normalize:
            # scale each window by its own lookback level, as is common for N-BEATS
            scale = x.abs().mean(dim=1, keepdim=True).clamp_min(1e-3)
            x, y = x / scale, y / scale
        self.x, self.y = x, y

    def __len__(self) -> int:
        return self.x.shape[0]

    def batches(self, batch_size: int, shuffle: bool = False, generator: torch.Generator | None = None):
        n = len(self)
        order = torch.randperm(n, generator=generator) if shuffle else torch.arange(n)
        for start in range(0, n, batch_size):
            idx = order[start:start + batch_size]
            yield self.x[idx], self.y[idx]


def train_val_split(series: torch.Tensor, lookback: int, horizon: int, val_fraction: float = 0.2):
    """Split along time so the validation windows come strictly after the training ones."""
    length = series.shape[1]
    cut = int(length * (1 - val_fraction))
    train = series[:, :cut]
    val = series[:, cut - lookback:]
    return train, val
