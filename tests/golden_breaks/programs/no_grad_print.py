import torch


@torch.compile
def main(x):
    y = x + 1
    with torch.no_grad():
        print("inside")  # expect: GB0059
        z = y * 2
    return z.sin()


def run():
    main(torch.randn(3))
