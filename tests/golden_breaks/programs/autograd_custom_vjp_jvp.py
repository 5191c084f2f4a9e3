"""torch.autograd.Function subclasses that define their own `vjp` or `jvp`, applied to a tensor that needs
grad: Dynamo refuses them at the apply (GB0145, GB0144), and the eager apply's forward is compiled as a
frame of its own (ok_autograd_custom_vjp_no_grad: no input needs grad, no break)."""
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


class Shift(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1

    @staticmethod
    def backward(ctx, grad):
        return grad

    @staticmethod
    def jvp(ctx, tangent):
        return tangent


@torch.compile
def scaled(x):
    return ScaleGrad.apply(x) + 1  # expect: GB0145


@torch.compile
def shifted(x):
    return Shift.apply(x) + 1  # expect: GB0144


def run():
    scaled(torch.randn(3, requires_grad=True))
    shifted(torch.randn(3, requires_grad=True))
