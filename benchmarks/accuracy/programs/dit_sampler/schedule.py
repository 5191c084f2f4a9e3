import math

import numpy as np
import torch


def cosine_betas(num_timesteps: int, s: float = 0.008, max_beta: float = 0.999) -> np.ndarray:
    def alpha_bar(t: float) -> float:
        return math.cos((t + s) / (1 + s) * math.pi / 2) ** 2

    betas = [
        min(1 - alpha_bar((i + 1) / num_timesteps) / alpha_bar(i / num_timesteps), max_beta)
        for i in range(num_timesteps)
    ]
    return np.array(betas, dtype=np.float64)


def linear_betas(num_timesteps: int, beta_start: float = 1e-4, beta_end: float = 0.02) -> np.ndarray:
    scale = 1000 / num_timesteps
    return np.linspace(scale * beta_start, scale * beta_end, num_timesteps, dtype=np.float64)


class NoiseSchedule:
    def __init__(self, num_timesteps: int = 1000, kind: str = "cosine") -> None:
        betas = {"cosine": cosine_betas, "linear": linear_betas}[kind](num_timesteps)
        self.num_timesteps = num_timesteps
        self.alphas_cumprod = np.cumprod(1.0 - betas)
        self.sqrt_alphas_cumprod = torch.from_numpy(np.sqrt(self.alphas_cumprod)).float()
        self.sqrt_one_minus_alphas_cumprod = torch.from_numpy(np.sqrt(1.0 - self.alphas_cumprod)).float()

    def q_sample(self, x0: torch.Tensor, t: torch.Tensor, noise: torch.Tensor) -> torch.Tensor:
        a = self.sqrt_alphas_cumprod[t].view(-1, 1, 1, 1)
        b = self.sqrt_one_minus_alphas_cumprod[t].view(-1, 1, 1, 1)
        return a * x0 + b * noise

    def ddim_timesteps(self, num_steps: int) -> list[int]:
        step = self.num_timesteps // num_steps
        return list(range(0, self.num_timesteps, step))[::-1]

    def alpha_bar(self, t: int) -> float:
        return float(self.alphas_cumprod[t]) if t >= 0 else 1.0
