import torch


@torch.compile
def gradient_penalty(x):
    y = (x ** 2).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)  # expect: GB9186
    return g.norm()


def run():
    gradient_penalty(torch.randn(4, requires_grad=True))
