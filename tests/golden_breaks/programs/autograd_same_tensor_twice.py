"""One tensor passed to two inputs of an autograd.Function's forward, with grad needed: Dynamo refuses the
apply (GB6297); the forward runs as a frame of its own."""
import torch


class Product(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * b, grad * a


@torch.compile
def squared(x):
    y = Product.apply(x, x)  # expect: GB6297
    return y.sum()


def run():
    squared(torch.randn(3, requires_grad=True))
