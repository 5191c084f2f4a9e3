"""Sort keys that are Python constants (strings, ints, a tensor's static size) are traced; tensor keys break
(sort_by_tensor_key)."""
import torch


@torch.compile
def first_named(x, y):
    named = {"b": x, "a": y}
    keys = sorted(named, key=lambda k: len(k) + ord(k[0]))
    return named[keys[0]] * 2


@torch.compile
def widest(x, y):
    items = [x, y]
    items.sort(key=lambda t: t.shape[0])
    return items[-1] + 1


def run():
    first_named(torch.randn(3), torch.randn(3))
    widest(torch.randn(3), torch.randn(5))
