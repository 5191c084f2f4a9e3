"""`with torch.device(...)` in compiled code: to Dynamo a torch.device is a constant, not a context manager it
knows how to enter (GB0142); entering it fails the frame, which runs eagerly (no graph)."""
import torch


@torch.compile
def make_bias(x):
    y = x * 2
    with torch.device("cpu"):  # expect: GB0142
        bias = torch.ones(3)
    return (y + bias).relu()


def run():
    make_bias(torch.ones(3))
