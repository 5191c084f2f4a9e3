import torch


@torch.compile
def step(x, w):
    y = x @ w
    print("y", y.shape)  # expect: GB0059
    return y.relu()


def run():
    step(torch.randn(3, 4), torch.randn(4, 2))
