import torch


class Box:
    @torch._disable_dynamo
    def reset(self):
        return 1


@torch._disable_dynamo
def helper(x):
    return x + 1


@torch.compile
def f(x, box):
    box.reset()  # expect: GB0008
    y = helper(x)  # expect: GB0007
    return y * 2


def run():
    f(torch.ones(2), Box())
