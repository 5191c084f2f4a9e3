"""A tiny deterministic gridworld implemented with torch tensors only."""

from __future__ import annotations

import torch

# up, right, down, left
ACTIONS = torch.tensor([[-1, 0], [0, 1], [1, 0], [0, -1]])
ACTION_NAMES = "^>v<"


class GridWorld:
    """Reach the goal in the bottom-right corner while avoiding the pits.

    Observation: one-hot of the agent cell, flattened to ``size * size``.
    Reward: +1 on the goal, -1 in a pit (both terminal), ``step_penalty`` otherwise.
    """

    def __init__(self, size: int = 5, max_steps: int = 30, step_penalty: float = -0.01,
                 slip_prob: float = 0.0, pits: tuple[tuple[int, int], ...] = ((1, 1), (2, 3), (3, 1)),
                 seed: int = 0) -> None:
        self.size = size
        self.max_steps = max_steps
        self.step_penalty = step_penalty
        self.slip_prob = slip_prob
        self.n_actions = ACTIONS.shape[0]
        self.obs_dim = size * size
        self.goal = torch.tensor([size - 1, size - 1])
        self.pits = torch.tensor(pits, dtype=torch.long).view(-1, 2)
        self.generator = torch.Generator().manual_seed(seed)
        self.pos = torch.zeros(2, dtype=torch.long)
        self.t = 0

    def _obs(self) -> torch.Tensor:
        obs = torch.zeros(self.obs_dim)
        obs[self.pos[0] * self.size + self.pos[1]] = 1.0
        return obs

    def obs_for(self, row: int, col: int) -> torch.Tensor:
        obs = torch.zeros(self.obs_dim)
        obs[row * self.size + col] = 1.0
        return obs

    def reset(self) -> torch.Tensor:
        self.pos = torch.zeros(2, dtype=torch.long)
        self.t = 0
        return self._obs()

    def step(self, action: int) -> tuple[torch.Tensor, float, bool, bool]:
        if self.slip_prob > 0 and torch.rand(1, generator=self.generator).item() < self.slip_prob:
            action = int(torch.randint(0, self.n_actions, (1,), generator=self.generator))
        self.pos = (self.pos + ACTIONS[action]).clamp(0, self.size - 1)
        self.t += 1

        reward = self.step_penalty
        terminated = False
        if torch.equal(self.pos, self.goal):
            reward, terminated = 1.0, True
        elif (self.pits == self.pos).all(dim=1).any():
            reward, terminated = -1.0, True
        truncated = self.t >= self.max_steps and not terminated
        return self._obs(), reward, terminated, truncated

    def render_policy(self, greedy_actions: torch.Tensor) -> str:
        """``greedy_actions``: (size * size,) action index per cell."""
        rows = []
        for r in range(self.size):
            line = ""
            for c in range(self.size):
                cell = torch.tensor([r, c])
                if torch.equal(cell, self.goal):
                    line += "G"
                elif (self.pits == cell).all(dim=1).any():
                    line += "X"
                else:
                    line += ACTION_NAMES[int(greedy_actions[r * self.size + c])]
            rows.append(line)
        return "\n".join(rows)
