"""A break inside a loop resumes when a `return` comes before the loop's jump back
(torch's maybe_has_backedge scans forward from the break to the first return)."""
import torch


@torch.compile
def shrink_steps(x):
    i = 0
    while i < 3:
        x = x * 2
        if x.sum() > 1e9:  # expect: GB0170
            return x
        i += 1
    return x


@torch.compile
def scaled(x, ws):
    for w in ws:
        x = x * w
        if x.sum() > 1e9:  # expect: GB0170
            return x
    return x


@torch.compile
def doubled(x):
    for i in range(3):
        x = x * 2
        if x.sum() > 1e9:  # expect: GB0170
            return x
    return x


def run():
    shrink_steps(torch.ones(3))
    scaled(torch.ones(3), [1.0, 2.0, 3.0])
    doubled(torch.ones(3))
