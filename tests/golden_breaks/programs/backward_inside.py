import torch


@torch.compile
def train(w, x):
    loss = (w * x).sum()
    loss.backward()  # expect: GB0123
    return loss


def run():
    train(torch.randn(3, requires_grad=True), torch.randn(3))
