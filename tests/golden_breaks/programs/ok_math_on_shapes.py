import math

import torch


@torch.compile
def attention_scale(q, k):
    d = q.shape[-1]
    return (q @ k.transpose(-1, -2)) / math.sqrt(d)


def run():
    attention_scale(torch.randn(2, 4), torch.randn(2, 4))
