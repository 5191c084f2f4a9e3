import torch


@torch.compile
def to_python(x):
    values = x.tolist()  # expect: GB0109
    return x * len(values)


def run():
    to_python(torch.randn(3))
