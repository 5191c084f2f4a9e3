"""A generator made in the compiled frame, advanced with next() and send(): Dynamo traces it
(generator_send_from_outside: one made outside breaks)."""
import torch


def running_total():
    total = 0
    while True:
        got = yield total
        total += got


@torch.compile
def accumulate(x):
    totals = running_total()
    next(totals)
    current = totals.send(3)
    return x * 2 + current


def run():
    accumulate(torch.randn(3))
