"""Run small programs under torch.compile (backend="eager") in one subprocess and
report, per program, the graph breaks Dynamo logs (line, registry id, Gb_type) and
the number of graphs. Used by the torch-marked tests of this folder to check the
decisions of `vtlint.analyzer.breaks` against the installed torch.

A program is Python source defining `f` (the compiled function) and `ARGS` (a tuple
of its arguments, default `(torch.ones(3),)`); `DYNAMO` may set torch._dynamo.config
values first."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

_RUNNER = r'''
import importlib.util, json, logging, re, sys, warnings
import torch, torch._dynamo
from torch._dynamo.utils import counters
warnings.simplefilter("ignore")
records = []
class Capture(logging.Handler):
    def emit(self, record):
        records.append(record.getMessage())
torch._logging.set_logs(graph_breaks=True)
log = logging.getLogger("torch._dynamo.symbolic_convert.__graph_breaks")
for h in list(log.handlers):
    log.removeHandler(h)
log.addHandler(Capture()); log.propagate = False
LINK = re.compile(r"gb/gb(\d+)\.html")
AT = re.compile(r"Graph break in user code at (.*):(\d+)")
out = {}
for name, path in json.loads(sys.argv[1]).items():
    records.clear(); torch._dynamo.reset(); counters.clear()
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    result = {"breaks": [], "error": None}
    try:
        spec.loader.exec_module(mod)
        with torch._dynamo.config.patch(**getattr(mod, "DYNAMO", {})):
            args = getattr(mod, "ARGS", (torch.ones(3),))
            torch.compile(mod.f, backend="eager", fullgraph=getattr(mod, "FULLGRAPH", False))(*args)
    except Exception as exc:
        result["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    for text in records:
        at, link = AT.search(text), LINK.search(text)
        lines = text.splitlines()
        reason = next((l for l in lines if l.startswith("Graph Break Reason:")), "")
        gb_type = reason.removeprefix("Graph Break Reason: ").strip()
        if gb_type.startswith("Encountered graph break when attempting"):
            i = lines.index(reason)
            gb_type = next((l.strip() for l in lines[i + 1:] if l.strip()), gb_type)
        line = int(at.group(2)) if at and at.group(1) == path else None
        if line is None:  # a break inside library code: the innermost line of the program in the traceback
            frames = re.findall(r'File "' + re.escape(path) + r'", line (\d+)', text)
            line = int(frames[-1]) if frames else None
        if line is not None:
            result["breaks"].append({"line": line, "gb_id": f"GB{link.group(1)}" if link else None, "gb_type": gb_type})
    result["graphs"] = counters["stats"]["unique_graphs"]
    out[name] = result
print("\n@@RESULT@@" + json.dumps(out))
'''


def run_programs(programs: dict[str, str], timeout: float = 600.0) -> dict[str, dict]:
    """name -> {"breaks": [{line, gb_id, gb_type}], "graphs": int, "error": str|None}."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name, source in programs.items():
            path = Path(tmp) / f"{name}.py"
            path.write_text(source, encoding="utf-8")
            paths[name] = str(path)
        proc = subprocess.run(
            [sys.executable, "-c", _RUNNER, json.dumps(paths)],
            capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, env={"PYTHONBREAKPOINT": "0", "PATH": "/usr/bin:/bin"},
        )
    marker = proc.stdout.rfind("@@RESULT@@")
    if marker < 0:
        raise RuntimeError(f"probe failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout[marker + len("@@RESULT@@"):])


if __name__ == "__main__":  # python tests/breaks/torch_probe.py prog.py...
    print(json.dumps(run_programs({Path(p).stem: Path(p).read_text() for p in sys.argv[1:]}), indent=1))
