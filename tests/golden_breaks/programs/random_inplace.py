import torch


@torch.compile
def init_ids(x):
    return x.clone().random_(0, 10)  # expect: GB0107


def run():
    init_ids(torch.zeros(4))
