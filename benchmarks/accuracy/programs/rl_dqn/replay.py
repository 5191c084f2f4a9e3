"""Fixed-size circular replay buffer backed by preallocated tensors."""

from __future__ import annotations

import torch


class ReplayBuffer:
    def __init__(self, obs_dim: int, capacity: int, seed: int = 0) -> None:
        self.capacity = capacity
        self.obs = torch.zeros(capacity, obs_dim)
        self.next_obs = torch.zeros(capacity, obs_dim)
        self.actions = torch.zeros(capacity, dtype=torch.long)
        self.rewards = torch.zeros(capacity)
        self.dones = torch.zeros(capacity)
        self.ptr = 0
        self.size = 0
        self.generator = torch.Generator().manual_seed(seed)

    def __len__(self) -> int:
        return self.size

    def add(self, obs: torch.Tensor, action: int, reward: float, next_obs: torch.Tensor, done: bool) -> None:
        self.obs[self.ptr] = obs
        self.actions[self.ptr] = action
        self.rewards[self.ptr] = reward
        self.next_obs[self.ptr] = next_obs
        self.dones[self.ptr] = float(done)
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size: int) -> dict[str, torch.Tensor]:
        idx = torch.randint(0, self.size, (batch_size,), generator=self.generator)
        return {
            "obs": self.obs[idx],
            "actions": self.actions[idx],
            "rewards": self.rewards[idx],
            "next_obs": self.next_obs[idx],
            "dones": self.dones[idx],
        }
