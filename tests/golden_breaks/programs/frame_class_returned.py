"""With config.enable_trace_load_build_class on, Dynamo traces a class statement in the frame; an instance of that
class returned from the frame has no Source to rebuild its class from (GB1319), and the frame runs eagerly
(class_in_forward: with the knob off, the class statement itself breaks)."""
import torch
import torch._dynamo

torch._dynamo.config.enable_trace_load_build_class = True


@torch.compile
def wrapped(x):
    class Output:
        def __init__(self, value):
            self.value = value

    y = x * 2
    return Output(y)  # expect: GB1319


def run():
    try:
        wrapped(torch.randn(3))
    finally:
        torch._dynamo.config.enable_trace_load_build_class = False
