import torch


@torch.compile
def f(x):
    y = (x * 2).long()
    sizes = y.tolist()  # expect: GB0033
    return x + sizes[0]


def run():
    f(torch.tensor([1.0, 2.0]))
