"""With config.capture_profiler_record_function on, Dynamo enters record_function as itself; a break inside
its block makes Dynamo rebuild it, which it refuses (GB0370 after the break's own id), and the frame runs
eagerly (break_in_profiler_block: off by default, it is a nullcontext and the frame resumes)."""
import torch
import torch._dynamo

torch._dynamo.config.capture_profiler_record_function = True


@torch.compile
def step(x):
    with torch.profiler.record_function("step"):
        y = x * 2
        print("step")  # expect: GB0059 GB0370
    return y


def run():
    try:
        step(torch.randn(3))
    finally:
        torch._dynamo.config.capture_profiler_record_function = False
