import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        y = self.lin(x)
        logger.info("activations computed")  # expect: GB0291
        return torch.relu(y)


model = torch.compile(Block())


def run():
    model(torch.randn(2, 4))
