import torch
import torch.nn.functional as F


@torch.compile
def f(logp, targets):
    y = logp * 1
    return F.ctc_loss(y, targets, torch.tensor([4]), torch.tensor([2]))  # expect: GB0036


def run():
    f(torch.randn(4, 1, 3).log_softmax(-1), torch.tensor([[1, 2]]))
