"""torch.profiler.record_function and torch.profiler.profile called in traced code outside a `with` are context
manager objects Dynamo models, not calls into torch/profiler's skipped files; a record_function returned from
the frame is rebuilt."""
import torch


@torch.compile
def annotated(x):
    y = x * 2
    rf = torch.profiler.record_function("step")
    return y, rf


def run():
    annotated(torch.randn(3))
