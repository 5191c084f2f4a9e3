"""`print` added to config.reorderable_logging_functions: Dynamo runs it after the graph when its arguments are
tensors, constants or f-strings; an object among them breaks (GB0296), resuming after
(ok_reordered_print: tensors and constants only, no break)."""
import torch
import torch._dynamo

torch._dynamo.config.reorderable_logging_functions.add(print)


class Stats:
    pass


stats = Stats()


@torch.compile
def step(x):
    y = x * 2
    print("step", stats)  # expect: GB0296
    return y + 1


def run():
    try:
        step(torch.randn(3))
    finally:
        torch._dynamo.config.reorderable_logging_functions.discard(print)
