"""id() of two containers made in the frame compared for equality is folded (FakeIdVariable with FakeIdVariable);
any other comparison of such an id breaks (id_of_container_compare)."""
import torch


@torch.compile
def aliased(x):
    a = [x]
    b = a
    if id(a) == id(b):
        return x * 2
    return x + 1


def run():
    aliased(torch.randn(3))
