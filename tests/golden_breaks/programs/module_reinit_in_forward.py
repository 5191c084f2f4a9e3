"""`super().__init__()` in `forward` re-runs nn.Module.__init__ on a module built outside the frame: Dynamo
refuses it (GB0162) and resumes after the call (ok_super_forward: other `super()` calls are traced)."""
import torch
from torch import nn


class Resettable(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        y = self.proj(x)
        super().__init__()  # expect: GB0162
        return y


model = torch.compile(Resettable())


def run():
    model(torch.randn(2, 4))
