"""The cost of vtlint's runtime step over running the same harness bare.

Runs the examples' harness (or --harness CMD in --cwd) alternately
  bare:   TORCH_TRACE=<tmp> CMD
  vtlint: vtlint's runtime step (hook on PYTHONPATH, timeout watch, trace parse,
          events, coverage) -- what `vtlint check --runtime` adds to the static pass
after one warm-up run of each (Inductor's on-disk cache makes the first run slower),
and prints the median wall times and their ratio as JSON. Target: ratio <= 1.15.

    python benchmarks/runtime_overhead/bench.py [--repeat 3] [--harness "python harness.py"] [--cwd examples]"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from vtlint.runtime.step import run_step

ROOT = Path(__file__).resolve().parents[2]


def bare(command: str, cwd: Path) -> float:
    with tempfile.TemporaryDirectory(prefix="bench-bare-") as trace:
        started = time.perf_counter()
        subprocess.run(shlex.split(command), cwd=cwd, env={**os.environ, "TORCH_TRACE": trace},
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return time.perf_counter() - started


def with_vtlint(command: str, cwd: Path) -> float:
    started = time.perf_counter()
    facts = run_step(command, cwd, timeout=1800)
    elapsed = time.perf_counter() - started
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
    times: dict[str, list[float]] = {"bare": [], "vtlint": []}
    for _ in range(args.repeat):  # alternate, so drift hits both sides alike
        times["bare"].append(bare(args.harness, cwd))
        times["vtlint"].append(with_vtlint(args.harness, cwd))
    medians = {k: statistics.median(v) for k, v in times.items()}
    result = {
        "harness": args.harness, "repeat": args.repeat, "python": sys.version.split()[0],
        "bare_s": [round(t, 3) for t in times["bare"]], "vtlint_s": [round(t, 3) for t in times["vtlint"]],
        "median_bare_s": round(medians["bare"], 3), "median_vtlint_s": round(medians["vtlint"], 3),
        "ratio": round(medians["vtlint"] / medians["bare"], 3), "target": 1.15,
    }
    print(json.dumps(result, indent=1))
    sys.exit(0 if result["ratio"] <= result["target"] else 1)


if __name__ == "__main__":
    main()
