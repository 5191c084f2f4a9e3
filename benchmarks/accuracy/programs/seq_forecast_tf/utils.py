from __future__ import annotations

import copy
import math
import random
from typing import Callable

import numpy as np
import torch


def set_seed(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def make_series(num_series: int, length: int, rng: np.random.Generator) -> np.ndarray:
    t = np.arange(length, dtype=np.float32)
    series = []
    for _ in range(num_series):
        period = rng.uniform(8.0, 24.0)
        seasonal = rng.uniform(0.5, 1.5) * np.sin(2 * math.pi * t / period + rng.uniform(0, 2 * math.pi))
        weekly = 0.3 * np.sin(2 * math.pi * t / 7.0)
        trend = rng.normal(0.0, 0.01) * t
        noise = rng.normal(0.0, 0.1, size=length)
        series.append(seasonal + weekly + trend + noise + rng.normal(0.0, 1.0))
    return np.stack(series).astype(np.float32)


def make_windows(series: np.ndarray, context: int, horizon: int, stride: int) -> tuple[torch.Tensor, torch.Tensor]:
    xs, ys = [], []
    for s in series:
        for start in range(0, len(s) - context - horizon + 1, stride):
            window = s[start : start + context + horizon]
            mu, sigma = window[:context].mean(), window[:context].std() + 1e-5
            window = (window - mu) / sigma
            xs.append(window[:context])
            ys.append(window[context:])
    x = torch.from_numpy(np.stack(xs)).unsqueeze(-1)
    y = torch.from_numpy(np.stack(ys)).unsqueeze(-1)
    return x, y


def quantile_loss(pred: torch.Tensor, target: torch.Tensor, quantiles: list[float]) -> torch.Tensor:
    q = torch.tensor(quantiles, dtype=pred.dtype, device=pred.device)
    diff = target - pred
    return torch.maximum(q * diff, (q - 1) * diff).mean()


def mse_loss(pred: torch.Tensor, target: torch.Tensor, quantiles: list[float]) -> torch.Tensor:
    return torch.mean((pred - target) ** 2)


LOSSES: dict[str, Callable[[torch.Tensor, torch.Tensor, list[float]], torch.Tensor]] = {
    "quantile": quantile_loss,
    "mse": mse_loss,
}


def get_loss(name: str) -> Callable[[torch.Tensor, torch.Tensor, list[float]], torch.Tensor]:
    if name not in LOSSES:
        raise ValueError(f"unknown loss '{name}', choose from {sorted(LOSSES)}")
    return LOSSES[name]


class EarlyStopping:
    def __init__(self, patience: int = 3, min_delta: float = 0.0) -> None:
        self.patience = patience
        self.min_delta = min_delta
        self.best = float("inf")
        self.best_state: dict[str, torch.Tensor] | None = None
        self.bad_epochs = 0

    def step(self, val_loss: float, model: torch.nn.Module) -> bool:
        if val_loss < self.best - self.min_delta:
            self.best = val_loss
            self.best_state = copy.deepcopy(model.state_dict())
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs >= self.patience
