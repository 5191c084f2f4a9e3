"""A tiny batched CartPole written in torch (same dynamics as gym's CartPole-v1)."""

from __future__ import annotations

import math

import torch


class BatchedCartPole:
    gravity = 9.8
    masscart = 1.0
    masspole = 0.1
    length = 0.5  # half the pole's length
    force_mag = 10.0
    tau = 0.02
    theta_threshold = 12 * 2 * math.pi / 360
    x_threshold = 2.4

    def __init__(self, num_envs: int, max_steps: int = 200, seed: int = 0):
        self.num_envs = num_envs
        self.max_steps = max_steps
        self.gen = torch.Generator().manual_seed(seed)
        self.total_mass = self.masspole + self.masscart
        self.polemass_length = self.masspole * self.length
        self.state = torch.zeros(num_envs, 4)
        self.steps = torch.zeros(num_envs, dtype=torch.long)

    @property
    def obs_dim(self) -> int:
        return 4

    @property
    def n_actions(self) -> int:
        return 2

    def _sample_state(self, n: int) -> torch.Tensor:
        return torch.rand(n, 4, generator=self.gen) * 0.1 - 0.05

    def reset(self) -> torch.Tensor:
        self.state = self._sample_state(self.num_envs)
        self.steps.zero_()
        return self.state.clone()

    def step(self, action: torch.Tensor):
        x, x_dot, theta, theta_dot = self.state.unbind(-1)
        force = torch.where(action == 1, self.force_mag, -self.force_mag)
        costheta, sintheta = torch.cos(theta), torch.sin(theta)
        temp = (force + self.polemass_length * theta_dot ** 2 * sintheta) / self.total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * costheta ** 2 / self.total_mass)
        )
        xacc = temp - self.polemass_length * thetaacc * costheta / self.total_mass

        x = x + self.tau * x_dot
        x_dot = x_dot + self.tau * xacc
        theta = theta + self.tau * theta_dot
        theta_dot = theta_dot + self.tau * thetaacc
        self.state = torch.stack([x, x_dot, theta, theta_dot], dim=-1)
        self.steps += 1

        terminated = (x.abs() > self.x_threshold) | (theta.abs() > self.theta_threshold)
        truncated = self.steps >= self.max_steps
        done = terminated | truncated
        reward = torch.ones(self.num_envs)

        # auto-reset finished environments
        if done.any():
            idx = done.nonzero(as_tuple=True)[0]
            self.state[idx] = self._sample_state(idx.numel())
            self.steps[idx] = 0
        return self.state.clone(), reward, done.float()
