import torch


@torch.compile
def annotated(x):
    with torch.profiler.record_function("step"):
        y = x * 2
        print("inside")  # expect: GB0059
        y = y + 1
    return y


def run():
    annotated(torch.randn(3))
