"""With config.enable_trace_contextlib off, Dynamo refuses to build a @contextmanager's context manager
(GB0263) and cannot enter the object made eagerly (GB0142): only the graph before the `with` is compiled
(ok_user_context_manager: on by default, traced)."""
import contextlib

import torch
import torch._dynamo

torch._dynamo.config.enable_trace_contextlib = False


@contextlib.contextmanager
def section():
    yield


@torch.compile
def step(x):
    y = x * 2
    with section():  # expect: GB0263 GB0142
        y = y + 1
    return y


def run():
    try:
        step(torch.randn(3))
    finally:
        torch._dynamo.config.enable_trace_contextlib = True
