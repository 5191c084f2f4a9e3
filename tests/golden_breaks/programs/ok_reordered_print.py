"""`print` added to config.reorderable_logging_functions, called with a tensor, constants and an f-string: Dynamo
runs it after the graph, no break (print_debug: by default print breaks; reordered_print_refused: an object
argument breaks)."""
import torch
import torch._dynamo

torch._dynamo.config.reorderable_logging_functions.add(print)


@torch.compile
def step(x, n):
    y = x * 2
    print("step", y, 3, f"call {n}")
    return y + 1


def run():
    try:
        step(torch.randn(3), 1)
    finally:
        torch._dynamo.config.reorderable_logging_functions.discard(print)
