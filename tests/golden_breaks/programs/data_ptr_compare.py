import torch


@torch.compile
def same_storage(x, y):
    if x.data_ptr() == y.data_ptr():  # expect: GB5976
        return x
    return x + y


def run():
    same_storage(torch.randn(3), torch.randn(3))
