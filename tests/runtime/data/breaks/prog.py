import torch

def helper(t, k):
    print("in helper")
    return t + k

@torch.compile(backend="eager")
def loopy(x):
    for i in range(3):
        if x.sum() > 0:
            x = x + 1
    return x

@torch.compile(backend="eager")
def nested(x, k):
    y = x * 2
    y = helper(y, k)
    return y - 1

class Lim:
    val = 0

@torch.compile(backend="eager", dynamic=False)
def many(x, n):
    return x + n

@torch.compile(backend="eager", fullgraph=True)
def strict(x):
    print("hi")
    return x

def run():
    x = torch.randn(4)
    loopy(x)
    nested(x, 2)
    for i in range(10):
        many(x, i)
    torch._dynamo.reset()
    nested(x, 2)
    try:
        strict(x)
    except Exception as e:
        print("EXC", type(e).__name__)
run()
