import torch


@torch.compile
def f(x):
    y = x + 1
    m = torch.masked_select(y, y > 1)  # expect: GB0036
    return m.sum()


def run():
    f(torch.tensor([1.0, 2.0, 3.0]))
