"""`ndarray.astype(object)` of a tensor's numpy view: torch has no tensor of Python objects, so Dynamo runs the
call eagerly (GB0250) and resumes after it; the object array the resumed frame receives breaks there too."""
import torch


@torch.compile
def labels(x):
    a = x.numpy()
    names = a.astype(object)  # expect: GB0250
    return x + 1, names  # expect: GB0185 missed


def run():
    labels(torch.randn(3))
