"""A torch.nn layer built inside the compiled forward: Dynamo inlines its `__init__`, which makes a Parameter of a
tensor that is no input (GB0264, reported at the user's line). The call then runs eagerly and the rest of the
frame resumes after it; torch.nn's own `__init__` is no frame Dynamo compiles."""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        extra = nn.Linear(4, 4)  # expect: GB0264
        return extra(self.proj(x)).relu()


def run():
    net = torch.compile(Net().eval())
    net(torch.randn(2, 4))
