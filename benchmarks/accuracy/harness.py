"""The accuracy benchmark's harness: runs every case once under torch.compile
(backend="eager"), in one process, with Dynamo reset between cases.

argv: ROOT RESULTS. ROOT holds `exportdb/` (the examples of torch's export db,
copied verbatim) and a copy of `transformers/` (so that its frames count as
project code). RESULTS gets one JSON line per case: name, entry, error."""

from __future__ import annotations

import importlib
import inspect
import json
import sys
import traceback
import types
from pathlib import Path
from typing import Any


def _entry(root: Path, cls: type) -> str:
    path = Path(inspect.getsourcefile(cls) or "").resolve().relative_to(root).as_posix()
    return f"{path}:{cls.__qualname__}.forward"


def _exportdb_cases(root: Path) -> list[tuple[str, Any]]:
    def case(path: Path) -> Any:
        def run(torch: Any, record: dict[str, Any]) -> None:
            module = importlib.import_module(f"exportdb.{path.stem}")
            model = module.model
            record["entry"] = _entry(root, type(model))
            compiled = torch.compile(model, backend="eager")
            compiled(*getattr(module, "example_args", ()), **getattr(module, "example_kwargs", {}))
        return run
    return [(f"exportdb.{p.stem}", case(p)) for p in sorted((root / "exportdb").glob("*.py")) if p.stem != "__init__"]


def _transformers_cases(root: Path) -> list[tuple[str, Any]]:
    from models import ARCHS, SEQ, VOCAB  # benchmarks/accuracy/models.py

    def case(arch: Any) -> Any:
        def run(torch: Any, record: dict[str, Any]) -> None:
            record["entry"] = arch.entry
            module = importlib.import_module(arch.module)
            config = getattr(module, arch.config_class, None) or getattr(importlib.import_module("transformers"),
                                                                         arch.config_class)
            cls = getattr(module, arch.model_class)
            torch.manual_seed(0)
            model = cls(config(**arch.config)).eval()
            inputs = {
                "input_ids": lambda: torch.randint(0, VOCAB, (1, SEQ)),
                "decoder_input_ids": lambda: torch.randint(0, VOCAB, (1, SEQ)),
                "attention_mask": lambda: torch.ones(1, SEQ, dtype=torch.long),
                "pixel_values": lambda: torch.randn(1, 3, arch.config["image_size"], arch.config["image_size"]),
            }
            # The entry is the class's own forward: the body `--entry file:Class.forward` walks,
            # without transformers' wrapping decorators (can_return_tuple, check_model_inputs).
            forward = types.MethodType(inspect.unwrap(cls.forward), model)
            with torch.no_grad():
                torch.compile(forward, backend="eager")(**{name: inputs[name]() for name in arch.inputs})
        return run
    return [(f"transformers.{arch.name}", case(arch)) for arch in ARCHS]


def main() -> None:
    root, results = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    sys.path[:0] = [str(root), str(Path(__file__).parent)]
    import torch

    with results.open("w", encoding="utf-8") as out:
        for name, run in _exportdb_cases(root) + _transformers_cases(root):
            torch._dynamo.reset()
            record: dict[str, Any] = {"name": name, "entry": None, "error": None}
            try:
                run(torch, record)
            except Exception as exc:  # noqa: BLE001 - a case that fails is a fact to report
                record["error"] = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
                traceback.print_exc()
            out.write(json.dumps(record) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
