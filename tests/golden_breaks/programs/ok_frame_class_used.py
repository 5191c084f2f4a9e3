"""With config.enable_trace_load_build_class on, a class statement in the frame is traced, and an instance used
inside the frame is fine (frame_class_returned: returned, it cannot be rebuilt)."""
import torch
import torch._dynamo

torch._dynamo.config.enable_trace_load_build_class = True


@torch.compile
def scaled(x):
    class Scale:
        def __init__(self, factor):
            self.factor = factor

    s = Scale(2.0)
    return x * s.factor


def run():
    try:
        scaled(torch.randn(3))
    finally:
        torch._dynamo.config.enable_trace_load_build_class = False
