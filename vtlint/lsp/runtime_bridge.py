"""The editor's door to the runtime step: run the configured harness under
Dynamo's structured trace (as `vtlint check --runtime` does) and hand back its
facts as RuntimeInput. Imported lazily: the diagnostics path never loads it."""

from __future__ import annotations

import importlib.util
from typing import Any

from vtlint.check import RuntimeInput
from vtlint.config import Config

_MODULE = "vtlint.runtime.cli_support"


def available() -> bool:
    """Whether this installation has the runtime step (without importing it)."""
    try:
        return importlib.util.find_spec(_MODULE) is not None
    except ModuleNotFoundError:
        return False


def run(config: Config) -> RuntimeInput:
    """Run `config.runtime.command` in the project root; faults of the harness come
    back as notifications, a usage mistake as an exception with one clear line."""
    from vtlint.runtime.cli_support import request_from, runtime_input

    request = request_from(config, runtime=True, command=None, timeout=None, facts_file=None, probe=False)
    result = runtime_input(request, config, show_progress=False)
    if result is None:  # request_from returns None only without a runtime step
        raise RuntimeError("no runtime step was requested")
    return result


def summary(runtime: RuntimeInput | None) -> dict[str, Any]:
    """A short account for the status bar: how many facts, how many faults."""
    if runtime is None:
        return {"text": "no runtime facts", "events": 0, "faults": 0}
    faults = [n for n in runtime.notifications if n.kind == "runtime-fault"]
    text = f"{len(runtime.events)} runtime facts" + (f", {len(faults)} fault(s): {faults[0].message}" if faults else "")
    return {"text": text, "events": len(runtime.events), "faults": len(faults)}
