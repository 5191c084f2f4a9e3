import torch


@torch.compile
def by_norm(x, y, z):
    ordered = sorted([x, y, z], key=lambda t: t.sum())  # expect: GB0207
    return ordered[0] * 2


@torch.compile
def in_place(x, y):
    items = [x, y]
    items.sort(key=lambda t: t.norm())  # expect: GB0207
    return items[0]


def run():
    by_norm(torch.randn(3), torch.randn(3), torch.randn(3))
    in_place(torch.randn(3), torch.randn(3))
