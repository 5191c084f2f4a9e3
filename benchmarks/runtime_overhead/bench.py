"""The cost of vtlint's runtime step over running the same harness bare.

Runs the examples' harness (or --harness CMD in --cwd) alternately
  bare:   TORCH_TRACE=<tmp> CMD
  vtlint: vtlint's runtime step (hook on PYTHONPATH, timeout watch, trace parse,
          events, coverage) -- what `vtlint check --runtime` adds to the static pass
after one warm-up run of each (Inductor's on-disk cache makes the first run slower),
and prints the median wall times, their ratio, and the ratio of CPU time (the
harness's plus vtlint's own) as JSON -- CPU time is the steadier figure on a
busy machine. Target: ratio <= 1.15.

    python benchmarks/runtime_overhead/bench.py [--repeat 3] [--harness "python harness.py"] [--cwd examples]"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from vtlint.runtime.step import run_step

ROOT = Path(__file__).resolve().parents[2]


def _cpu() -> float:
    """CPU seconds of this process and its finished children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def bare(command: str, cwd: Path) -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="bench-bare-") as trace:
        started, cpu = time.perf_counter(), _cpu()
        subprocess.run(shlex.split(command), cwd=cwd, env={**os.environ, "TORCH_TRACE": trace},
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return time.perf_counter() - started, _cpu() - cpu


def with_vtlint(command: str, cwd: Path) -> tuple[float, float]:
    started, cpu = time.perf_counter(), _cpu()
    facts = run_step(command, cwd, timeout=1800)
    elapsed = time.perf_counter() - started, _cpu() - cpu
    if facts.harness.get("exit_code") != 0:
        raise SystemExit(f"harness failed under vtlint: {[n.message for n in facts.notifications]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--harness", default="python harness.py")
    parser.add_argument("--cwd", type=Path, default=ROOT / "examples")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cwd = args.cwd.resolve()
    bare(args.harness, cwd), with_vtlint(args.harness, cwd)  # warm-up: Inductor's cache, the OS page cache
    times: dict[str, list[tuple[float, float]]] = {"bare": [], "vtlint": []}
    for _ in range(args.repeat):  # alternate, so drift hits both sides alike
        times["bare"].append(bare(args.harness, cwd))
        times["vtlint"].append(with_vtlint(args.harness, cwd))
    wall = {k: statistics.median(w for w, _ in v) for k, v in times.items()}
    cpu = {k: statistics.median(c for _, c in v) for k, v in times.items()}
    result = {
        "harness": args.harness, "repeat": args.repeat, "python": sys.version.split()[0],
        "bare_wall_s": [round(w, 3) for w, _ in times["bare"]], "vtlint_wall_s": [round(w, 3) for w, _ in times["vtlint"]],
        "median_bare_wall_s": round(wall["bare"], 3), "median_vtlint_wall_s": round(wall["vtlint"], 3),
        "median_bare_cpu_s": round(cpu["bare"], 3), "median_vtlint_cpu_s": round(cpu["vtlint"], 3),
        "ratio": round(wall["vtlint"] / wall["bare"], 3), "cpu_ratio": round(cpu["vtlint"] / cpu["bare"], 3),
        "target": 1.15,
    }
    print(json.dumps(result, indent=1))
    sys.exit(0 if result["ratio"] <= result["target"] else 1)


if __name__ == "__main__":
    main()
