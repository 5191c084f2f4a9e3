import torch


@torch.compile(fullgraph=True)
def f(x):
    y = x * 2
    torch._dynamo.step_unsupported()  # expect: GB0284
    return y + 1


def run():
    try:
        f(torch.randn(3))
    except torch._dynamo.exc.Unsupported:  # fullgraph: the break is an error
        pass
