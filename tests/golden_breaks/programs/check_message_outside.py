import torch


def message():
    return "batch must not be empty"


@torch.compile
def checked(x):
    y = x * 2
    torch._check(y.shape[0] > 0, message)  # expect: GB9840
    return y + 1


@torch.compile
def checked_text(x):
    y = x * 2
    torch._check(y.shape[0] > 0, "batch must not be empty")  # expect: GB9840
    return y + 1


def run():
    checked(torch.randn(3))
    checked_text(torch.randn(3))
