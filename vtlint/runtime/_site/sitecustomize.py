"""vtlint's hook inside a harness process (put on PYTHONPATH by the runtime step).

The structured trace does not record which calls Dynamo inlined, so this hook
wraps `InliningInstructionTranslator.inline_call` once torch._dynamo's
symbolic_convert is imported, and appends one JSON line per inlined call to
`$VTLINT_HOOK_DIR/vtlint_inline_<pid>.jsonl`. It uses only the standard
library, never imports torch itself (a harness that never imports torch pays
nothing), never changes what Dynamo does, and swallows its own errors. The
user's own sitecustomize, if any, still runs after it."""

from __future__ import annotations

import importlib.abc
import importlib.util
import json
import os
import sys
from typing import Any

_TARGET = "torch._dynamo.symbolic_convert"
_DIR = os.environ.get("VTLINT_HOOK_DIR")
_state: dict[str, Any] = {"file": None, "torch_dir": None}


def _write(record: dict[str, Any]) -> None:
    if _state["file"] is None:
        path = os.path.join(_DIR or ".", f"vtlint_inline_{os.getpid()}.jsonl")
        _state["file"] = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the process
    _state["file"].write(json.dumps(record) + "\n")
    _state["file"].flush()


def _in_torch(filename: str) -> bool:
    torch_dir = _state["torch_dir"]
    return bool(torch_dir) and os.path.abspath(filename).startswith(torch_dir)


def _user_site(tracer: Any) -> tuple[str, int, str] | None:
    """The innermost call site outside torch on the tracer's parent chain: a call
    through nn.Module.__call__ is reported at the user's `self.block(x)`."""
    while tracer is not None:
        code = getattr(tracer, "f_code", None)
        if code is not None and not _in_torch(code.co_filename):
            return code.co_filename, int(getattr(tracer, "lineno", 0) or 0), code.co_name
        tracer = getattr(tracer, "parent", None)
    return None


def _record(parent: Any, func: Any) -> None:
    code = func.get_code() if hasattr(func, "get_code") else None
    if code is None or _in_torch(code.co_filename):
        return
    site = _user_site(parent)
    if site is None:
        return
    root = parent
    while getattr(root, "parent", None) is not None:
        root = root.parent
    root_code = getattr(root, "f_code", None)
    fn = getattr(func, "fn", None)
    compile_id = None
    try:
        from torch._guards import CompileContext

        current = CompileContext.current_compile_id()
        compile_id = str(current) if current is not None else None
    except Exception:  # noqa: BLE001 - older or newer torch: the id is optional
        pass
    _write({
        "caller_file": site[0],
        "caller_line": site[1],
        "caller_function": site[2],
        "callee_file": code.co_filename,
        "callee_name": code.co_name,
        "callee_qualname": getattr(code, "co_qualname", None) or getattr(fn, "__qualname__", code.co_name),
        "callee_firstlineno": code.co_firstlineno,
        "callee_module": getattr(fn, "__module__", None),
        "compile_id": compile_id,
        "root_file": root_code.co_filename if root_code else None,
        "root_name": root_code.co_name if root_code else None,
        "root_firstlineno": root_code.co_firstlineno if root_code else None,
    })


def _patch(module: Any) -> None:
    cls = getattr(module, "InliningInstructionTranslator", None)
    original = cls.__dict__.get("inline_call") if cls is not None else None
    if not isinstance(original, classmethod):
        return
    _state["torch_dir"] = os.path.dirname(os.path.dirname(os.path.abspath(module.__file__))) + os.sep
    inner = original.__func__

    def inline_call(klass: Any, parent: Any, func: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            _record(parent, func)
        except Exception:  # noqa: BLE001 - the hook must never change what Dynamo does
            pass
        return inner(klass, parent, func, *args, **kwargs)

    cls.inline_call = classmethod(inline_call)


class _Finder(importlib.abc.MetaPathFinder):
    """Patches symbolic_convert right after it is executed, if it ever is."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != _TARGET:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
                loader = spec.loader
                original = loader.exec_module

                def exec_module(module: Any) -> None:
                    original(module)
                    try:
                        _patch(module)
                    except Exception:  # noqa: BLE001
                        pass

                loader.exec_module = exec_module  # type: ignore[method-assign]
                return spec
        return None


def _chain_user_sitecustomize() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    for entry in sys.path:
        folder = os.path.abspath(entry or os.curdir)
        candidate = os.path.join(folder, "sitecustomize.py")
        if folder != here and os.path.isfile(candidate):
            spec = importlib.util.spec_from_file_location("_user_sitecustomize", candidate)
            if spec and spec.loader:
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
            return


if _DIR:
    if _TARGET in sys.modules:
        _patch(sys.modules[_TARGET])
    else:
        sys.meta_path.insert(0, _Finder())
_chain_user_sitecustomize()
