"""Policy / value networks for discrete-action PPO."""

from __future__ import annotations

from typing import Sequence

import torch
import torch.nn as nn
from torch.distributions import Categorical

_ACTIVATIONS = {
    "tanh": nn.Tanh,
    "relu": nn.ReLU,
    "elu": nn.ELU,
    "silu": nn.SiLU,
}


def layer_init(layer: nn.Linear, std: float = 2 ** 0.5, bias_const: float = 0.0) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias_const)
    return layer


def build_mlp(in_dim: int, hidden_sizes: Sequence[int], out_dim: int,
              activation: str = "tanh", out_std: float = 1.0) -> nn.Sequential:
    act_cls = _ACTIVATIONS[activation]
    layers = []
    last = in_dim
    for h in hidden_sizes:
        layers.append(layer_init(nn.Linear(last, h)))
        layers.append(act_cls())
        last = h
    layers.append(layer_init(nn.Linear(last, out_dim), std=out_std))
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int, hidden_sizes=(64, 64),
                 activation: str = "tanh", shared_trunk: bool = False):
        super().__init__()
        self.shared_trunk = shared_trunk
        self.obs_dim = obs_dim
        self.n_actions = n_actions
        if shared_trunk:
            self.trunk = build_mlp(obs_dim, hidden_sizes[:-1], hidden_sizes[-1], activation)
            self.actor = layer_init(nn.Linear(hidden_sizes[-1], n_actions), std=0.01)
            self.critic = layer_init(nn.Linear(hidden_sizes[-1], 1), std=1.0)
        else:
            self.trunk = nn.Identity()
            self.actor = build_mlp(obs_dim, hidden_sizes, n_actions, activation, out_std=0.01)
            self.critic = build_mlp(obs_dim, hidden_sizes, 1, activation, out_std=1.0)
        # running observation statistics, updated outside of forward
        self.register_buffer("obs_mean", torch.zeros(obs_dim))
        self.register_buffer("obs_var", torch.ones(obs_dim))

    def normalize_obs(self, obs: torch.Tensor) -> torch.Tensor:
        return ((obs - self.obs_mean) / torch.sqrt(self.obs_var + 1e-8)).clamp(-10.0, 10.0)

    def forward(self, obs: torch.Tensor):
        """Returns (action logits, state value)."""
        h = self.trunk(self.normalize_obs(obs))
        logits = self.actor(h)
        value = self.critic(h).squeeze(-1)
        return logits, value

    @torch.no_grad()
    def update_obs_stats(self, batch: torch.Tensor, momentum: float = 0.99) -> None:
        self.obs_mean.mul_(momentum).add_(batch.mean(0), alpha=1 - momentum)
        self.obs_var.mul_(momentum).add_(batch.var(0, unbiased=False), alpha=1 - momentum)


def act(policy: nn.Module, obs: torch.Tensor, deterministic: bool = False):
    """Sample an action (or take the argmax) and return (action, log_prob, value)."""
    logits, value = policy(obs)
    dist = Categorical(logits=logits)
    action = dist.probs.argmax(-1) if deterministic else dist.sample()
    return action, dist.log_prob(action), value
