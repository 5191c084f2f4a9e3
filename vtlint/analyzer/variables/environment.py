"""What the machine answers: an environment variable, read from the analyzer's own environment (the shell that
runs the user's script runs vtlint too), and the accelerators the platform has. Import-time checks in libraries
(`_is_torch_xpu_available = is_torch_xpu_available()`, `os.environ.get("TRANSFORMERS_SDPA_FORCE_GQA", "0")`)
then pick the path they pick on this machine."""

from __future__ import annotations

import os
import sys

from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value

ENVIRON_GET = "os.environ.get"
ENV_READS = frozenset({ENVIRON_GET, "os.getenv"})
# the accelerators a machine that compiles for CUDA or the CPU does not have
ABSENT_ACCELERATORS = frozenset(f"torch.{device}.is_available" for device in ("xpu", "npu", "mlu", "hpu", "musa"))
# Apple's GPU backend: only macOS has it
MPS = frozenset({"torch.backends.mps.is_available", "torch.backends.mps.is_built"})


def answered(name: str, args: list[Value]) -> Value | None:
    """The constant the machine gives for the library call `name`, or None when it does not decide it."""
    if name in ABSENT_ACCELERATORS or (name in MPS and sys.platform != "darwin"):
        return V.const(False)
    if name in ENV_READS and args and args[0].known and isinstance(args[0].value, str):
        found = os.environ.get(args[0].value)
        if found is not None:
            return V.const(found)
        default = args[1] if len(args) > 1 else V.const(None)
        return default if default.kind == V.CONST and default.known else None
    return None
