"""Train a DQN agent on the gridworld and print episode returns."""

from __future__ import annotations

import random
from dataclasses import dataclass

import torch

from agent import DQNAgent
from env import GridWorld
from replay import ReplayBuffer


@dataclass
class Config:
    total_steps: int = 800
    learning_starts: int = 64
    train_freq: int = 1
    batch_size: int = 32
    buffer_size: int = 2000
    gamma: float = 0.95
    tau: float = 0.05
    lr: float = 2e-3
    double_dqn: bool = True
    eps_decay: float = 250.0
    grid_size: int = 4
    pits: tuple[tuple[int, int], ...] = ((1, 1), (1, 3))
    log_every_episodes: int = 5
    seed: int = 0


def evaluate(agent: DQNAgent, env: GridWorld, episodes: int = 3) -> float:
    total = 0.0
    for _ in range(episodes):
        obs, done, ep_ret = env.reset(), False, 0.0
        while not done:
            obs, reward, terminated, truncated = env.step(agent.act(obs, epsilon=0.0))
            ep_ret += reward
            done = terminated or truncated
        total += ep_ret
    return total / episodes


def main(cfg: Config) -> None:
    random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    env = GridWorld(size=cfg.grid_size, max_steps=4 * cfg.grid_size, pits=cfg.pits, seed=cfg.seed)
    agent = DQNAgent(env.obs_dim, env.n_actions, hidden_sizes=(32, 32), lr=cfg.lr, gamma=cfg.gamma,
                     tau=cfg.tau, double_dqn=cfg.double_dqn, eps_decay=cfg.eps_decay, seed=cfg.seed)
    buffer = ReplayBuffer(env.obs_dim, cfg.buffer_size, seed=cfg.seed)

    obs = env.reset()
    ep_return, ep_len, episode = 0.0, 0, 0
    recent_returns: list[float] = []
    last_loss, last_q = float("nan"), float("nan")
    for step in range(cfg.total_steps):
        eps = agent.epsilon(step)
        action = agent.act(obs, eps)
        next_obs, reward, terminated, truncated = env.step(action)
        # only true terminations cut the bootstrap; time-limit truncation does not
        buffer.add(obs, action, reward, next_obs, terminated)
        obs = next_obs
        ep_return += reward
        ep_len += 1

        if terminated or truncated:
            recent_returns.append(ep_return)
            episode += 1
            if episode % cfg.log_every_episodes == 0:
                avg = sum(recent_returns[-cfg.log_every_episodes:]) / cfg.log_every_episodes
                print(f"step {step:4d} | episode {episode:3d} | avg return {avg:+.3f} | len {ep_len:2d} "
                      f"| eps {eps:.3f} | loss {last_loss:.4f} | mean Q {last_q:+.3f}")
            obs, ep_return, ep_len = env.reset(), 0.0, 0

        if len(buffer) >= cfg.learning_starts and step % cfg.train_freq == 0:
            last_loss, last_q = agent.update(buffer.sample(cfg.batch_size))

    print(f"greedy evaluation return: {evaluate(agent, env):+.3f}")
    all_cells = torch.eye(env.obs_dim)
    print("greedy policy:")
    print(env.render_policy(agent.greedy_actions(all_cells)))


if __name__ == "__main__":
    main(Config())
