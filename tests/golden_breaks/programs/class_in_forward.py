import torch


@torch.compile
def boxed(x):
    class Box:  # expect: GB8977
        def __init__(self, v):
            self.v = v

    return Box(x * 2).v


def run():
    boxed(torch.randn(3))
