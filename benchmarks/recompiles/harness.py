"""The recompile benchmark's harness: runs every program of `programs/` once, in
one process, with Dynamo reset between programs.

argv: ROOT RESULTS [NAME,...] [BACKEND]. ROOT holds the programs: `NAME.py` (single file)
or `NAME/` (model.py + the script with a `__main__` block). RESULTS gets one
JSON line per program: name, script, error, seconds, backend. BACKEND is the
backend torch.compile is forced to: "aot_eager" (default: AOTAutograd decides
float specialization as under Inductor, without building C++), "eager", or
"inductor" (torch.compile left as the programs call it; minutes per program on
a CPU). See `_backend` in benchmarks/accuracy/harness.py."""

from __future__ import annotations

import importlib.util
import json
import sys
import time
import traceback
from pathlib import Path
from typing import Any


def _accuracy_harness() -> Any:
    """benchmarks/accuracy/harness.py: how a program is run (shared, not copied)."""
    path = Path(__file__).resolve().parent.parent / "accuracy" / "harness.py"
    spec = importlib.util.spec_from_file_location("accuracy_harness", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_shared = _accuracy_harness()
program_script, run_program = _shared.program_script, _shared.run_program


def programs(root: Path) -> list[tuple[str, Path, Path]]:
    """(name, script, folder) of every program under `root`, sorted by name."""
    found = []
    for path in sorted(root.iterdir()):
        if path.is_dir() and (script := program_script(path)):
            found.append((path.name, script, path))
        elif path.suffix == ".py":
            found.append((path.stem, path, root))
    return found


def main() -> None:
    root, results = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    wanted = set(sys.argv[3].split(",")) if len(sys.argv) > 3 and sys.argv[3] else None
    backend = sys.argv[4] if len(sys.argv) > 4 else "aot_eager"
    import torch

    with results.open("w", encoding="utf-8") as out:
        for name, script, folder in programs(root):
            if wanted is not None and name not in wanted:
                continue
            torch._dynamo.reset()
            record: dict[str, Any] = {"name": name, "script": script.relative_to(root).as_posix(), "error": None,
                                      "backend": backend}
            started = time.perf_counter()
            try:
                run_program(torch, script, folder, backend)
            except Exception as exc:  # noqa: BLE001 - a program that fails is a fact to report
                record["error"] = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
                traceback.print_exc()
            record["seconds"] = round(time.perf_counter() - started, 2)
            out.write(json.dumps(record) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
