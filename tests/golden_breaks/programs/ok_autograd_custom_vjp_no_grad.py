"""An autograd.Function with a custom `vjp`, applied where no input needs grad: Dynamo inlines its forward,
nothing breaks (autograd_custom_vjp_jvp: with grad, it breaks)."""
import torch


class ScaleGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2

    @staticmethod
    def vjp(ctx, grad):
        return grad * 2


@torch.compile
def scaled(x):
    y = x + 1
    return ScaleGrad.apply(y) + ScaleGrad.apply(x)


def run():
    scaled(torch.randn(3))
