import torch


@torch.compile
def f(x):
    y = x + 1
    if torch.is_inference_mode_enabled():  # expect: GB0046
        return y
    return y * 2


def run():
    f(torch.ones(2))
