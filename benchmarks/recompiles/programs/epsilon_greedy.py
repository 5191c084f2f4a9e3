"""A DQN policy acting epsilon-greedily with a decaying epsilon."""

import torch
import torch.nn as nn


class QNetwork(nn.Module):
    def __init__(self, obs_dim=4, n_actions=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, obs):
        return self.net(obs)


@torch.compile
def act(q_net, obs, epsilon):
    greedy = q_net(obs).argmax(-1)
    random_actions = torch.randint_like(greedy, 0, 2)
    explore = torch.rand(greedy.shape) < epsilon
    return torch.where(explore, random_actions, greedy)


def main():
    torch.manual_seed(0)
    q_net = QNetwork()
    epsilon, eps_min, decay = 1.0, 0.05, 0.8
    for episode in range(5):
        actions = act(q_net, torch.randn(8, 4), epsilon)
        epsilon = max(eps_min, epsilon * decay)
        print(episode, round(epsilon, 3), actions.tolist())


if __name__ == "__main__":
    main()
