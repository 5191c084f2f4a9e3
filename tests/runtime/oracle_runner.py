"""Runs inside the oracle's one subprocess: imports each program, calls its
`run()`, resets Dynamo between programs, and records what each raised.

argv: ROOT RESULTS BACKEND NAME...   (BACKEND "default" keeps each compile's own)"""

from __future__ import annotations

import importlib.util
import json
import sys
import traceback


def _force_backend(torch: object, backend: str) -> None:
    original = torch.compile  # type: ignore[attr-defined]

    def compile(model: object = None, **kwargs: object) -> object:
        kwargs["backend"] = backend
        return original(**kwargs) if model is None else original(model, **kwargs)

    torch.compile = compile  # type: ignore[attr-defined]


def main() -> None:
    root, results, backend, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    sys.path.insert(0, root)
    import torch

    if backend != "default":
        _force_backend(torch, backend)
    with open(results, "a", encoding="utf-8") as out:
        for name in names:
            torch._dynamo.reset()
            error = None
            try:
                spec = importlib.util.spec_from_file_location(name, f"{root}/{name}.py")
                assert spec and spec.loader
                module = importlib.util.module_from_spec(spec)
                sys.modules[name] = module
                spec.loader.exec_module(module)
                if hasattr(module, "run"):
                    module.run()
            except Exception as exc:  # noqa: BLE001 - each program's failure is a fact to report
                error = f"{type(exc).__name__}: {exc}".splitlines()[0]
                traceback.print_exc()
            out.write(json.dumps({"name": name, "error": error}) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
