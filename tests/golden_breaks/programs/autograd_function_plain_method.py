"""A plain method called on a torch.autograd.Function object made in traced code: Dynamo traces only `apply`,
`backward`, static and class methods there (GB0140), cannot rebuild the object for the eager call (GB0092),
and runs the frame eagerly; the method is compiled as a frame of its own (ok_autograd_custom_vjp_no_grad:
`apply` is traced)."""
import torch


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad):
        return grad

    def bounds(self, x):
        return x + 1


@torch.compile
def bounded(x):
    fn = Clamp()
    return fn.bounds(x)  # expect: GB0140 GB0092


def run():
    bounded(torch.randn(3))
