"""`send()` on a generator object made outside the compiled frame: Dynamo refuses a method call on an existing
generator (GB0253) and resumes after it (ok_generator_send_inside: one made in the frame is traced)."""
import torch


def running_total():
    total = 0
    while True:
        got = yield total
        total += got


@torch.compile
def accumulate(x, totals):
    y = x * 2
    current = totals.send(3)  # expect: GB0253
    return y + current


def run():
    totals = running_total()
    next(totals)
    accumulate(torch.randn(3), totals)
