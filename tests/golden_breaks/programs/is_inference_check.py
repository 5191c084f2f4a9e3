import torch


@torch.compile
def inference_aware(x):
    if x.is_inference():  # expect: GB0045
        return x
    return x * 2


def run():
    inference_aware(torch.randn(3))
