import torch


@torch.compile
def densified(x, crow, col):
    y = x * 2
    torch.sparse_csr_tensor(crow, col, y, (2, 2))  # expect: GB0374
    return y + 1


def run():
    densified(torch.randn(2), torch.tensor([0, 1, 2]), torch.tensor([0, 1]))
