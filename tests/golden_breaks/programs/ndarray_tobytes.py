import torch


@torch.compile
def serialized(x):
    a = (x * 2).numpy()
    raw = a.tobytes()  # expect: GB0158
    return a + 1, raw


def run():
    serialized(torch.randn(3))
