import torch


class Plain:
    pass


class Tagged:
    pass


@torch.compile
def retag(x, obj):
    y = x * 2
    obj.__class__ = Tagged  # expect: GB4271
    return y + 1


def run():
    retag(torch.randn(3), Plain())
