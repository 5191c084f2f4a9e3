import os
import tempfile

import torch

LOG = os.path.join(tempfile.gettempdir(), "vtlint_golden_log.txt")


@torch.compile
def write_log(x):
    y = x + 1
    with open(LOG, "w") as fh:  # expect: GB0059 GB0142
        fh.write("x")
    return y


def run():
    write_log(torch.randn(3))
