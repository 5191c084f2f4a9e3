"""Context managers made in the frame and returned from it: Dynamo cannot rebuild a @contextmanager's object
(GB2533) or a torch.profiler.profile (GB0212) outside the graph, and runs the frame eagerly (ok_user_context_manager:
entered in the frame, both are traced)."""
import contextlib

import torch


@contextlib.contextmanager
def timed_section():
    yield


@torch.compile
def forward_with_section(x):
    section = timed_section()
    y = x * 2
    return y, section  # expect: GB2533


@torch.compile
def forward_with_profiler(x):
    prof = torch.profiler.profile()
    return x * 2, prof  # expect: GB0212


def run():
    forward_with_section(torch.randn(3))
    forward_with_profiler(torch.randn(3))
