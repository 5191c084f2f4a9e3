"""vtlint's hook inside a harness process (put on PYTHONPATH by the runtime step).

The structured trace does not record which calls Dynamo inlined, so this hook
wraps `InliningInstructionTranslator.inline_call` once torch._dynamo's
symbolic_convert is imported, and appends one JSON line per inlined call to
`$VTLINT_HOOK_DIR/vtlint_inline_<pid>.jsonl`.

With `VTLINT_PROBE=1` it also remembers the first call of every compiled
callable and, at exit (when the harness is done), re-calls it once per baked
constant with that value changed -- on copies of the arguments; a module
attribute is restored right after -- with the structured trace switched off,
and writes the guard Dynamo reports as failed to `vtlint_probes_<pid>.jsonl`.
`$VTLINT_PROBE_PLAN` (JSON: [{"file", "function", "source"}]) says which
sources to change; without it, every scalar argument is probed.

It uses only the standard library, never imports torch itself (a harness that
never imports torch pays nothing), never changes what Dynamo does while the
harness runs, and swallows its own errors. The user's own sitecustomize, if
any, still runs after it."""

from __future__ import annotations

import atexit
import copy
import functools
import importlib.abc
import importlib.util
import inspect
import json
import logging
import os
import re
import sys
import types
from typing import Any

_DIR = os.environ.get("VTLINT_HOOK_DIR")
_PROBE = os.environ.get("VTLINT_PROBE") == "1"
_state: dict[str, Any] = {"files": {}, "torch_dir": None, "calls": []}


def _write(kind: str, record: dict[str, Any]) -> None:
    files = _state["files"]
    if kind not in files:
        path = os.path.join(_DIR or ".", f"vtlint_{kind}_{os.getpid()}.jsonl")
        files[kind] = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the process
    files[kind].write(json.dumps(record) + "\n")
    files[kind].flush()


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
    _write("inline", {
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


def _patch_inlining(module: Any) -> None:
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


# --- probes ----------------------------------------------------------------

_SOURCE_STEP = re.compile(r"\.([A-Za-z_]\w*)|\[(\d+)\]|\[(['\"])(.*?)\3\]")


def _patch_compile(module: Any) -> None:
    """Remember the first call of each callable torch.compile returns."""
    ctx = getattr(module, "_TorchDynamoContext", None)
    original = getattr(ctx, "__call__", None) if ctx is not None else None
    if original is None:
        return

    def __call__(self: Any, fn: Any) -> Any:
        compiled = original(self, fn)
        if not isinstance(compiled, types.FunctionType) or not callable(fn):
            return compiled
        seen: list[bool] = []

        @functools.wraps(compiled)
        def recorder(*args: Any, **kwargs: Any) -> Any:
            if not seen:
                seen.append(True)
                try:
                    _remember(fn, compiled, args, kwargs)
                except Exception:  # noqa: BLE001
                    pass
            return compiled(*args, **kwargs)

        return recorder

    ctx.__call__ = __call__


def _target(fn: Any) -> tuple[Any, Any]:
    """(the code Dynamo compiles, the callable whose signature binds the args)."""
    owner = getattr(fn, "__self__", None)
    forward = getattr(type(owner), "forward", None) if owner is not None else None
    if forward is not None and getattr(fn, "__name__", "") in ("__call__", "_call_impl", "_wrapped_call_impl"):
        return forward.__code__, owner.forward
    inner = inspect.unwrap(fn)
    code = getattr(getattr(inner, "__func__", inner), "__code__", None)
    return code, inner


def _remember(fn: Any, compiled: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    code, signature_of = _target(fn)
    if code is None:
        return
    if not _state["calls"]:
        atexit.register(_run_probes)
    copies = tuple(copy.copy(a) if isinstance(a, (list, dict, set)) else a for a in args)
    _state["calls"].append((code, signature_of, compiled, copies, dict(kwargs)))


def _changed(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + "_probe"
    raise TypeError(f"cannot change a {type(value).__name__}")


def _steps(source: str) -> tuple[str, list[tuple[str, Any]]] | None:
    head = re.match(r"L\[(['\"])(\w+)\1\]", source)
    if not head:
        return None
    steps: list[tuple[str, Any]] = []
    rest = source[head.end():]
    while rest:
        step = _SOURCE_STEP.match(rest)
        if not step:
            return None
        if step[1]:
            steps.append(("attr", step[1]))
        else:
            steps.append(("item", int(step[2]) if step[2] else step[4]))
        rest = rest[step.end():]
    return head[2], steps


def _get(obj: Any, step: tuple[str, Any]) -> Any:
    return getattr(obj, step[1]) if step[0] == "attr" else obj[step[1]]


def _set(obj: Any, step: tuple[str, Any], value: Any) -> Any:
    """`obj` with the step set to value: a copy, except for modules (restored by the caller)."""
    if step[0] == "attr":
        setattr(obj, step[1], value)
    elif isinstance(obj, tuple):
        obj = tuple(value if i == step[1] else v for i, v in enumerate(obj))
    else:
        obj[step[1]] = value
    return obj


def _probe_call(call: tuple[Any, ...], source: str) -> dict[str, Any]:
    code, signature_of, compiled, args, kwargs = call
    parsed = _steps(source)
    if parsed is None:
        raise ValueError(f"cannot probe {source}")
    name, steps = parsed
    owner = getattr(signature_of, "__self__", None)
    bound = inspect.signature(signature_of).bind(*args, **kwargs)
    bound.apply_defaults()
    restore: list[tuple[Any, str, Any]] = []
    if name == "self" and owner is not None:
        root = owner
    else:
        root = bound.arguments[name]
    chain = [root]
    for step in steps:
        chain.append(_get(chain[-1], step))
    old, new = chain[-1], _changed(chain[-1])
    value = new
    for depth in range(len(steps) - 1, -1, -1):
        parent = chain[depth]
        if not (depth == 0 and name == "self"):
            parent = copy.copy(parent)
        elif steps[depth][0] == "attr":
            restore.append((parent, steps[depth][1], getattr(parent, steps[depth][1])))
        value = _set(parent, steps[depth], value)
    if name != "self":
        bound.arguments[name] = value if steps else new
    from torch._dynamo.utils import guard_failures

    before = {key: len(reasons) for key, reasons in guard_failures.items()}
    error = None
    try:
        compiled(*bound.args, **bound.kwargs)
    except Exception as exc:  # noqa: BLE001 - the changed value may not be valid for the program
        error = f"{type(exc).__name__}: {exc}".splitlines()[0]
    finally:
        for obj, attr, previous in restore:
            setattr(obj, attr, previous)
    failed = [r.split("\n", 1)[0] for key, reasons in guard_failures.items() for r in reasons[before.get(key, 0):]
              if (getattr(key, "co_filename", None), getattr(key, "co_name", None)) == (code.co_filename, code.co_name)]
    return {"file": code.co_filename, "function": code.co_name, "firstlineno": code.co_firstlineno,
            "source": source, "old": repr(old), "new": repr(new), "failed": failed, "error": error}


def _plan() -> list[dict[str, Any]] | None:
    path = os.environ.get("VTLINT_PROBE_PLAN")
    if not path:
        return None
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _scalar_sources(call: tuple[Any, ...]) -> list[str]:
    _, signature_of, _, args, kwargs = call
    bound = inspect.signature(signature_of).bind(*args, **kwargs)
    return [f"L['{n}']" for n, v in bound.arguments.items() if isinstance(v, (bool, int, float, str))]


def _run_probes() -> None:
    logging.getLogger("torch.__trace").disabled = True  # probe compiles are not the harness's facts
    plan = _plan()
    for call in _state["calls"]:
        code = call[0]
        try:
            sources = _scalar_sources(call) if plan is None else [
                p["source"] for p in plan
                if p["function"] == code.co_name and os.path.samefile(p["file"], code.co_filename)]
        except Exception:  # noqa: BLE001
            continue
        for source in sources:
            try:
                record = _probe_call(call, source)
            except Exception as exc:  # noqa: BLE001
                record = {"file": code.co_filename, "function": code.co_name, "firstlineno": code.co_firstlineno,
                          "source": source, "error": f"not probed: {type(exc).__name__}: {exc}"}
            _write("probes", record)


# --- wiring ----------------------------------------------------------------

_PATCHES = {"torch._dynamo.symbolic_convert": _patch_inlining}
if _PROBE:
    _PATCHES["torch._dynamo.eval_frame"] = _patch_compile


class _Finder(importlib.abc.MetaPathFinder):
    """Patches torch._dynamo's modules right after they are executed, if they ever are."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        patch = _PATCHES.get(name)
        if patch is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
                loader = spec.loader
                original = loader.exec_module

                def exec_module(module: Any, original: Any = original, patch: Any = patch) -> None:
                    original(module)
                    try:
                        patch(module)
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
    for _name, _patch in _PATCHES.items():
        if _name in sys.modules:
            _patch(sys.modules[_name])
    sys.meta_path.insert(0, _Finder())
_chain_user_sitecustomize()
