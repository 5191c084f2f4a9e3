import torch


@torch.compile
def unrolled(x):
    for i in range(3):
        print("step", i)  # expect: GB0059 loop
        x = x + i
    return x


def run():
    unrolled(torch.zeros(2))
