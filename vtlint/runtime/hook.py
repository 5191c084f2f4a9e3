"""The environment a harness runs in: TORCH_TRACE for Dynamo's structured
trace, and vtlint's sitecustomize hook (inlined calls) on PYTHONPATH."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

SITE_DIR = Path(__file__).parent / "_site"  # holds only the hook's sitecustomize.py


def harness_env(trace_dir: Path, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """`base` (the user's environment by default) plus what the runtime step needs."""
    env = dict(os.environ if base is None else base)
    env["TORCH_TRACE"] = str(trace_dir)
    env["VTLINT_HOOK_DIR"] = str(trace_dir)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SITE_DIR), env.get("PYTHONPATH", "")) if p)
    return env
