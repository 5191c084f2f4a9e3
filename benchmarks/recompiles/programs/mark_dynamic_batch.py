"""Variable batch sizes with the batch dimension marked dynamic before the first call."""

import torch
import torch.nn as nn


class PolicyHead(nn.Module):
    def __init__(self, obs_dim=16, hidden=32, actions=4):
        super().__init__()
        self.body = nn.Linear(obs_dim, hidden)
        self.logits = nn.Linear(hidden, actions)

    def forward(self, obs):
        return self.logits(torch.tanh(self.body(obs)))


def main():
    torch.manual_seed(0)
    model = torch.compile(PolicyHead())
    for batch in (8, 3, 17, 8):
        x = torch.randn(batch, 16)
        torch._dynamo.mark_dynamic(x, 0)
        print(batch, model(x).shape)


if __name__ == "__main__":
    main()
