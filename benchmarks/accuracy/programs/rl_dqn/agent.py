"""DQN agent with a target network, double-DQN targets and soft (Polyak) updates."""

from __future__ import annotations

import copy
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(sizes: list[int], activation: type[nn.Module] = nn.ReLU,
        output_activation: type[nn.Module] = nn.Identity) -> nn.Sequential:
    layers: list[nn.Module] = []
    for j in range(len(sizes) - 1):
        act = activation if j < len(sizes) - 2 else output_activation
        layers += [nn.Linear(sizes[j], sizes[j + 1]), act()]
    return nn.Sequential(*layers)


@torch.compile
def td_loss(q_net: nn.Module, target_net: nn.Module, batch: dict[str, torch.Tensor], gamma: float,
            double_dqn: bool) -> tuple[torch.Tensor, torch.Tensor]:
    q_values = q_net(batch["obs"])
    q_taken = q_values.gather(1, batch["actions"].unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        next_q_target = target_net(batch["next_obs"])
        if double_dqn:
            # the online network picks the action, the target network evaluates it
            next_actions = q_net(batch["next_obs"]).argmax(dim=1, keepdim=True)
            next_q = next_q_target.gather(1, next_actions).squeeze(1)
        else:
            next_q = next_q_target.max(dim=1).values
        target = batch["rewards"] + gamma * (1.0 - batch["dones"]) * next_q
    loss = F.smooth_l1_loss(q_taken, target)
    return loss, q_taken.detach().mean()


class DQNAgent:
    def __init__(self, obs_dim: int, n_actions: int, hidden_sizes: tuple[int, ...] = (64, 64),
                 lr: float = 1e-3, gamma: float = 0.99, tau: float = 0.01, double_dqn: bool = True,
                 eps_start: float = 1.0, eps_end: float = 0.05, eps_decay: float = 200.0,
                 seed: int = 0) -> None:
        self.n_actions = n_actions
        self.gamma = gamma
        self.tau = tau
        self.double_dqn = double_dqn
        self.eps_start, self.eps_end, self.eps_decay = eps_start, eps_end, eps_decay
        self.rng = random.Random(seed)

        self.q_net = mlp([obs_dim, *hidden_sizes, n_actions])
        self.target_net = copy.deepcopy(self.q_net)
        for p in self.target_net.parameters():
            p.requires_grad_(False)
        self.optimizer = torch.optim.Adam(self.q_net.parameters(), lr=lr)
        self._q_forward = torch.compile(self.q_net)

    def epsilon(self, step: int) -> float:
        return self.eps_end + (self.eps_start - self.eps_end) * math.exp(-step / self.eps_decay)

    @torch.no_grad()
    def act(self, obs: torch.Tensor, epsilon: float) -> int:
        if self.rng.random() < epsilon:
            return self.rng.randrange(self.n_actions)
        q = self._q_forward(obs.unsqueeze(0))
        return int(q.argmax(dim=1).item())

    @torch.no_grad()
    def greedy_actions(self, observations: torch.Tensor) -> torch.Tensor:
        return self._q_forward(observations).argmax(dim=1)

    def update(self, batch: dict[str, torch.Tensor]) -> tuple[float, float]:
        loss, mean_q = td_loss(self.q_net, self.target_net, batch, self.gamma, self.double_dqn)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(self.q_net.parameters(), 10.0)
        self.optimizer.step()
        self.soft_update()
        return loss.item(), mean_q.item()

    @torch.no_grad()
    def soft_update(self) -> None:
        for p_target, p in zip(self.target_net.parameters(), self.q_net.parameters()):
            p_target.mul_(1.0 - self.tau).add_(p, alpha=self.tau)
