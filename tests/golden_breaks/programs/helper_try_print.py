import torch


def report(y):
    try:
        print("value")  # expect: GB0059
    except RuntimeError:
        pass
    return y * 2


@torch.compile
def main(x):
    y = x + 1
    z = report(y)
    return z.cos()


def run():
    main(torch.randn(3))
