"""The same loops skip the frame when the loop's jump back comes first: an `if` that
falls through, an `else: return` (the `if` body's jump to the loop's end is threaded
into the jump back), a `continue`, a `break`."""
import torch


@torch.compile
def falls_through(x):
    i = 0
    while i < 3:
        x = x * 2
        if x.sum() > 1e9:  # expect: GB0170 loop
            x = x - 1
        i += 1
    return x


@torch.compile
def else_returns(x, ws):
    for w in ws:
        if x.sum() < 1e9:  # expect: GB0170 loop
            x = x * w
        else:
            return x
    return x


@torch.compile
def continues(x, ws):
    for w in ws:
        x = x * w
        if x.sum() > 1e9:  # expect: GB0170 loop
            continue
        x = x + 1
    return x


@torch.compile
def breaks_out(x, ws):
    for w in ws:
        x = x * w
        if x.sum() > 1e9:  # expect: GB0170 loop
            break
    return x


def run():
    falls_through(torch.ones(3))
    else_returns(torch.ones(3), [1.0, 2.0])
    continues(torch.ones(3), [1.0, 2.0])
    breaks_out(torch.ones(3), [1.0, 2.0])
