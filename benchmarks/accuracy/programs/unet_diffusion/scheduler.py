"""DDPM noise schedule: forward noising and ancestral sampling steps."""

from __future__ import annotations

import math

import torch
import torch.nn as nn


def cosine_betas(num_steps: int, s: float = 0.008) -> torch.Tensor:
    steps = torch.arange(num_steps + 1, dtype=torch.float64) / num_steps
    alphas_bar = torch.cos((steps + s) / (1 + s) * math.pi / 2) ** 2
    betas = 1 - alphas_bar[1:] / alphas_bar[:-1]
    return betas.clamp(max=0.999).float()


class DDPMScheduler(nn.Module):
    def __init__(self, num_train_timesteps: int = 1000, beta_start: float = 1e-4,
                 beta_end: float = 0.02, schedule: str = "linear", clip_sample: bool = True):
        super().__init__()
        self.num_train_timesteps = num_train_timesteps
        self.clip_sample = clip_sample
        if schedule == "linear":
            betas = torch.linspace(beta_start, beta_end, num_train_timesteps, dtype=torch.float32)
        elif schedule == "cosine":
            betas = cosine_betas(num_train_timesteps)
        else:
            raise ValueError(f"unknown beta schedule {schedule}")
        alphas = 1.0 - betas
        alphas_cumprod = torch.cumprod(alphas, dim=0)
        alphas_cumprod_prev = torch.cat([torch.ones(1), alphas_cumprod[:-1]])

        self.register_buffer("betas", betas)
        self.register_buffer("alphas", alphas)
        self.register_buffer("alphas_cumprod", alphas_cumprod)
        self.register_buffer("alphas_cumprod_prev", alphas_cumprod_prev)
        self.register_buffer("sqrt_alphas_cumprod", alphas_cumprod.sqrt())
        self.register_buffer("sqrt_one_minus_alphas_cumprod", (1.0 - alphas_cumprod).sqrt())
        posterior_var = betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)
        self.register_buffer("posterior_variance", posterior_var)
        self.timesteps = torch.arange(num_train_timesteps - 1, -1, -1)

    @staticmethod
    def _extract(a: torch.Tensor, t: torch.Tensor, ndim: int) -> torch.Tensor:
        out = a.gather(0, t)
        return out.reshape(t.shape[0], *([1] * (ndim - 1)))

    def add_noise(self, x0: torch.Tensor, noise: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        """q(x_t | x_0) = N(sqrt(abar_t) x_0, (1 - abar_t) I)."""
        a = self._extract(self.sqrt_alphas_cumprod, t, x0.ndim)
        s = self._extract(self.sqrt_one_minus_alphas_cumprod, t, x0.ndim)
        return a * x0 + s * noise

    def set_timesteps(self, num_inference_steps: int) -> None:
        """Evenly spaced subset of the training timesteps, from noisy to clean."""
        ratio = self.num_train_timesteps // num_inference_steps
        self.timesteps = (torch.arange(num_inference_steps) * ratio).flip(0)

    def previous_timestep(self, t: int) -> int:
        if len(self.timesteps) == self.num_train_timesteps:
            return t - 1
        return t - self.num_train_timesteps // len(self.timesteps)

    def step(self, model_out: torch.Tensor, t: int, x: torch.Tensor,
             generator: torch.Generator | None = None) -> torch.Tensor:
        """One ancestral step x_t -> x_{t_prev} given the predicted noise."""
        prev_t = self.previous_timestep(t)
        abar_t = self.alphas_cumprod[t]
        abar_prev = self.alphas_cumprod[prev_t] if prev_t >= 0 else torch.tensor(1.0)
        beta_t = 1 - abar_t / abar_prev

        x0_pred = (x - (1 - abar_t).sqrt() * model_out) / abar_t.sqrt()
        if self.clip_sample:
            x0_pred = x0_pred.clamp(-1.0, 1.0)
        coef_x0 = abar_prev.sqrt() * beta_t / (1 - abar_t)
        coef_xt = (1 - beta_t).sqrt() * (1 - abar_prev) / (1 - abar_t)
        mean = coef_x0 * x0_pred + coef_xt * x

        if t > 0:
            var = (1 - abar_prev) / (1 - abar_t) * beta_t
            noise = torch.randn(x.shape, generator=generator, dtype=x.dtype)
            return mean + var.clamp(min=1e-20).sqrt() * noise
        return mean
