import torch
import torch._dynamo


@torch.compile
def two_graphs(x):
    y = x.exp()
    torch._dynamo.graph_break()  # expect: GB0025
    return y.log()


def run():
    two_graphs(torch.rand(4))
