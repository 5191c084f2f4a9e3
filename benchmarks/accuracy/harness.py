"""The accuracy benchmark's harness: runs every case once under torch.compile
(backend="eager"), in one process, with Dynamo reset between cases.

argv: ROOT RESULTS [CORPUS,...] [LIMIT]. ROOT holds `exportdb/` (the examples of
torch's export db, copied verbatim), a copy of `transformers/` (so that its
frames count as project code) and `programs/` (one folder per program, run as
its script's `__main__`). RESULTS gets one JSON line per case: name, entry,
error. A program's entries are whatever it compiles (read from the trace)."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import runpy
import sys
import traceback
import types
from pathlib import Path
from collections.abc import Iterator
from typing import Any

CORPORA = ("exportdb", "transformers", "programs")


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
            size = arch.config.get("image_size", 32)
            inputs = {
                "input_ids": lambda: torch.randint(0, VOCAB, (1, SEQ)),
                "decoder_input_ids": lambda: torch.randint(0, VOCAB, (1, SEQ)),
                "attention_mask": lambda: torch.ones(1, SEQ, dtype=torch.long),
                "pixel_values": lambda: torch.randn(1, 3, size, size),
                "input_features": lambda: torch.randn(1, arch.config.get("num_mel_bins", 16),
                                                      2 * arch.config.get("max_source_positions", 32)),
                "input_values": lambda: torch.randn(1, 400),
            }
            # The entry is the class's own forward: the body `--entry file:Class.forward` walks,
            # without transformers' wrapping decorators (can_return_tuple, check_model_inputs).
            forward = types.MethodType(inspect.unwrap(cls.forward), model)
            with torch.no_grad():
                torch.compile(forward, backend="eager")(**{name: inputs[name]() for name in arch.inputs})
        return run
    return [(f"transformers.{arch.name}", case(arch)) for arch in ARCHS]


def program_script(folder: Path) -> Path | None:
    """The script a user runs: train.py, infer.py, ... (the one with a `__main__` block)."""
    for path in sorted(folder.glob("*.py")):
        if "__name__ == \"__main__\"" in path.read_text(encoding="utf-8"):
            return path
    return None


@contextlib.contextmanager
def _backend(torch: Any, backend: str) -> Iterator[None]:
    """Programs call `torch.compile(model)` as users do; here the backend is forced
    (Inductor's C++ builds take minutes on a loaded CPU: 146 s for one 5-step program).
    Guards, breaks and inlining happen before the backend, so "eager" gives the same
    facts, with one exception: AOTAutograd (under Inductor and "aot_eager") specializes
    a float that reaches an op as a Python scalar (`p.add_(g, alpha=-lr)`) and
    recompiles on every new value, where "eager" keeps it a SymFloat. "inductor"
    leaves torch.compile alone."""
    if backend == "inductor":
        yield
        return
    original = torch.compile

    def compile(*args: Any, **kwargs: Any) -> Any:
        kwargs["backend"] = backend
        kwargs.pop("mode", None)
        kwargs.pop("options", None)
        return original(*args, **kwargs)

    torch.compile = compile
    try:
        yield
    finally:
        torch.compile = original


def run_program(torch: Any, script: Path, folder: Path, backend: str = "eager") -> None:
    """Run `script` as `python script` would, with `folder` first on sys.path; then
    forget the modules it imported from there (model.py of the next program is
    another module) and Dynamo's cache of imported modules (its G['__import_model'])."""
    # a module of the program named like one already imported (the harness's own `models`) is the
    # program's while it runs
    shadowed = {p.stem: sys.modules.pop(p.stem) for p in folder.glob("*.py") if p.stem in sys.modules}
    before = set(sys.modules)
    sys.path.insert(0, str(folder))
    argv = sys.argv
    sys.argv = [str(script)]
    try:
        with _backend(torch, backend):
            runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv = argv
        sys.path.remove(str(folder))
        for name in set(sys.modules) - before:
            if str(folder) in str(getattr(sys.modules[name], "__file__", "") or ""):
                del sys.modules[name]
        sys.modules.update(shadowed)
        cached = getattr(torch._dynamo.symbolic_convert, "_import_module", None)
        if hasattr(cached, "cache_clear"):
            cached.cache_clear()


def _program_cases(root: Path) -> list[tuple[str, Any]]:
    def case(folder: Path, script: Path) -> Any:
        def run(torch: Any, record: dict[str, Any]) -> None:
            run_program(torch, script, folder, "aot_eager")
        return run
    folders = sorted(p for p in (root / "programs").glob("*") if p.is_dir())
    return [(f"programs.{f.name}", case(f, script)) for f in folders if (script := program_script(f))]


def cases(root: Path, corpora: tuple[str, ...], limit: int | None) -> list[tuple[str, Any]]:
    makers = {"exportdb": _exportdb_cases, "transformers": _transformers_cases, "programs": _program_cases}
    out: list[tuple[str, Any]] = []
    for corpus in corpora:
        out += makers[corpus](root)[:limit]
    return out


def main() -> None:
    root, results = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    corpora = tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else CORPORA
    limit = int(sys.argv[4]) if len(sys.argv) > 4 and int(sys.argv[4]) > 0 else None
    sys.path[:0] = [str(root), str(Path(__file__).parent)]
    import torch

    with results.open("w", encoding="utf-8") as out:
        for name, run in cases(root, corpora, limit):
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
