"""The editor's door to the runtime step (`vtlint.runtime`): run the configured
harness under Dynamo's structured trace and hand back its facts as RuntimeInput.
Imported lazily: the diagnostics path never loads the runtime package."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from vtlint.check import RuntimeInput
from vtlint.config import Config

ENTRY_POINT = "runtime_input"  # vtlint.runtime.runtime_input(config) -> RuntimeInput


def _entry() -> Callable[[Config], RuntimeInput] | None:
    try:
        module = importlib.import_module("vtlint.runtime")
    except ImportError:
        return None
    entry = getattr(module, ENTRY_POINT, None)
    return entry if callable(entry) else None


def available() -> bool:
    return _entry() is not None


def run(config: Config) -> RuntimeInput:
    entry = _entry()
    if entry is None:
        raise RuntimeError("the runtime step is unavailable")
    return entry(config)


def summary(runtime: RuntimeInput | None) -> dict[str, Any]:
    """A short account for the status bar: how many facts, how many faults."""
    if runtime is None:
        return {"text": "no runtime facts", "events": 0, "faults": 0}
    faults = [n for n in runtime.notifications if n.kind == "runtime-fault"]
    text = f"{len(runtime.events)} runtime facts" + (f", {len(faults)} fault(s): {faults[0].message}" if faults else "")
    return {"text": text, "events": len(runtime.events), "faults": len(faults)}
