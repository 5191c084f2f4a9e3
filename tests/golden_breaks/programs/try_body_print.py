import torch


@torch.compile
def attempt(x):
    y = x * 3
    try:
        print("trying")  # expect: GB0059
        z = y + 1
    except RuntimeError:
        z = y
    return z.sin()


def run():
    attempt(torch.randn(3))
