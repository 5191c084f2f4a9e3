import contextlib
import io

import torch


@torch.compile
def quiet(x, buf):
    y = x * 2
    with contextlib.redirect_stdout(buf):  # expect: GB0262 GB0142
        y = y + 1
    return y


def run():
    quiet(torch.randn(3), io.StringIO())
