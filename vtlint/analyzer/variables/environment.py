"""What the machine answers, as a run with nothing set up reads it: an environment variable is unset (its read gives
the default), and the accelerators are those of a machine that compiles for CUDA or the CPU. Import-time checks in
libraries (`_is_torch_xpu_available = is_torch_xpu_available()`, `os.environ.get("TRANSFORMERS_SDPA_FORCE_GQA", "0")`)
then pick the path they pick there. Never the analyzer's own environment: a report, and the cache that keeps it, must
not change with the shell that ran vtlint."""

from __future__ import annotations

import sys

from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value

ENVIRON_GET = "os.environ.get"
ENV_READS = frozenset({ENVIRON_GET, "os.getenv"})
# the accelerators a machine that compiles for CUDA or the CPU does not have
ABSENT_ACCELERATORS = frozenset(f"torch.{device}.is_available" for device in ("xpu", "npu", "mlu", "hpu", "musa"))
# Apple's GPU backend: only macOS has it
MPS = frozenset({"torch.backends.mps.is_available", "torch.backends.mps.is_built"})


def answered(name: str, args: list[Value], kwargs: dict[str, Value]) -> Value | None:
    """The constant the machine gives for the library call `name`, or None when it does not decide it."""
    if name in ABSENT_ACCELERATORS or (name in MPS and sys.platform != "darwin"):
        return V.const(False)
    if name in ENV_READS and args and args[0].known and isinstance(args[0].value, str):
        default = args[1] if len(args) > 1 else kwargs.get("default", V.const(None))
        return default if default.kind == V.CONST and default.known else None
    return None
