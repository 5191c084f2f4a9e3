"""How the static pass scales: with the size of the corpus (1x, 2x, 4x the same
files, under copy0/, copy1/, ... so they are distinct modules, the same at every size) and with the depth of
inlining (a generated chain of helpers f -> h1 -> h2 -> ... -> hN).

Each point is an in-process `vtlint.analyzer.analyze(..., use_cache=False,
jobs=1)`, timed in CPU seconds (time.process_time: fair on a busy machine), the
best of 2 (3 for depths) after one untimed warm-up, so the interpreter's start
and the imports are not counted. A fit t = a + b*n says whether the cost is linear.

    python benchmarks/scaling/run.py [--sample N] [--depths 1,2,4,...] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRATCH = HERE.parent / ".scratch" / "scaling"
sys.path.insert(0, str(HERE.parent / "speed"))

from run import build_corpus, corpus_files  # noqa: E402  (benchmarks/speed/run.py)

from vtlint.analyzer import Prediction, analyze  # noqa: E402
from vtlint.analyzer.files import discover  # noqa: E402
from vtlint.config import Config  # noqa: E402
from vtlint.trace import Action  # noqa: E402


def timed(work: Callable[[], Prediction], repeat: int = 1) -> tuple[float, float, Prediction]:
    """(CPU s, wall s, result), the best of `repeat`."""
    runs = []
    for _ in range(repeat):
        cpu, wall = time.process_time(), time.perf_counter()
        result = work()
        runs.append((time.process_time() - cpu, time.perf_counter() - wall, result))
    return min(runs, key=lambda t: t[0])


def analyze_folder(root: Path, assume: bool) -> Prediction:
    config = Config(root=root, assume_compiled=("forward",) if assume else ())
    return analyze(discover([root], config).files, config, jobs=1, use_cache=False)


def fit(points: list[tuple[float, float]]) -> tuple[float, float, float]:
    """Least squares t = a + b*n: (a, b, r^2)."""
    n = len(points)
    mx, my = sum(x for x, _ in points) / n, sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    b = sum((x - mx) * (y - my) for x, y in points) / sxx
    a = my - b * mx
    ss = sum((y - my) ** 2 for _, y in points)
    r2 = 1 - sum((y - (a + b * x)) ** 2 for x, y in points) / ss if ss else 1.0
    return a, b, r2


def corpus_scaling(sample: int, assume: bool) -> list[dict[str, object]]:
    files = corpus_files(sample)
    rows = []
    for copies in (1, 2, 4):
        root = SCRATCH / f"corpus{copies}"
        lines = build_corpus(root, files, copies)
        cpu, wall, prediction = timed(lambda: analyze_folder(root, assume), repeat=2)
        rows.append({"copies": copies, "files": len(files) * copies, "lines": lines, "cpu_s": cpu, "wall_s": wall,
                     "entries": len(prediction.entries), "events": len(prediction.events)})
    return rows


def chain_program(depth: int) -> str:
    """f compiled, calling h1, which calls h2, ... down to h<depth>, each reading a global."""
    helpers = [f"def h{i}(x):\n    return h{i + 1}(x) * SCALE + {i}\n" for i in range(1, depth)]
    helpers.append(f"def h{depth}(x):\n    return x + SCALE\n")
    return textwrap.dedent("""\
        import torch

        SCALE = 2

        """) + "\n\n".join(helpers) + textwrap.dedent("""

        @torch.compile
        def f(x):
            return h1(x)
        """)


def depth_scaling(depths: list[int]) -> list[dict[str, object]]:
    rows = []
    for depth in depths:
        root = SCRATCH / f"depth{depth}"
        root.mkdir(parents=True, exist_ok=True)
        (root / "pyproject.toml").write_text("[tool.vtlint]\n", encoding="utf-8")
        (root / "chain.py").write_text(chain_program(depth), encoding="utf-8")
        cpu, wall, prediction = timed(lambda: analyze_folder(root, False), repeat=3)
        inlined = sum(1 for e in prediction.events if e.action is Action.INLINE)
        rows.append({"depth": depth, "cpu_s": cpu, "wall_s": wall, "inlined": inlined})
    return rows


def render(size: list[dict[str, object]], depth: list[dict[str, object]], assume: bool) -> str:
    out = [f"corpus size (analyze, jobs 1, no cache{', --assume-compiled forward' if assume else ''}):",
           f"{'copies':>6} {'files':>6} {'lines':>8} {'CPU s':>8} {'×1x':>6} {'events':>7}"]
    base = float(size[0]["cpu_s"])
    for row in size:
        out.append(f"{row['copies']:>6} {row['files']:>6} {row['lines']:>8} {row['cpu_s']:>8.2f} "
                   f"{float(row['cpu_s']) / base:>6.2f} {row['events']:>7}")
    a, b, r2 = fit([(float(r["files"]), float(r["cpu_s"])) for r in size])
    out.append(f"fit: CPU s = {a:.2f} + {1000 * b:.2f} ms/file, r² = {r2:.4f}")
    out += ["", "inline depth (one compiled f calling a chain of N helpers):",
            f"{'depth':>6} {'CPU ms':>8} {'×depth 1':>9} {'inlined':>8}"]
    first = float(depth[0]["cpu_s"])
    for row in depth:
        flag = "" if row["inlined"] == row["depth"] else "   <-- walk stopped before the end of the chain"
        out.append(f"{row['depth']:>6} {1000 * float(row['cpu_s']):>8.1f} {float(row['cpu_s']) / first:>9.2f} "
                   f"{row['inlined']:>8}{flag}")
    da, db, dr2 = fit([(float(r["depth"]), float(r["cpu_s"])) for r in depth])
    out.append(f"fit: CPU ms = {1000 * da:.1f} + {1000 * db:.2f} ms/level, r² = {dr2:.4f}")
    out.append("")
    out.append(f"SUMMARY: 4x the files costs {float(size[-1]['cpu_s']) / base:.2f}x (r² {r2:.3f}); "
               f"depth {depth[-1]['depth']} costs {float(depth[-1]['cpu_s']) / first:.1f}x depth 1 "
               f"(r² {dr2:.3f}), {depth[-1]['inlined']}/{depth[-1]['depth']} levels inlined")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=30, help="every N-th file of the speed corpus is the 1x corpus")
    parser.add_argument("--depths", default="1,2,4,8,16,32,64,128")
    parser.add_argument("--no-assume", action="store_true", help="without --assume-compiled forward")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))  # as the analyzer's workers do for deep nesting
    assume = not args.no_assume
    depths = [int(d) for d in args.depths.split(",")]
    timed(lambda: analyze_folder(HERE, False))  # warm-up: imports and the trace_rules snapshot
    try:
        size = corpus_scaling(args.sample, assume)
    except RuntimeError as exc:  # the analyzer crashed with --assume-compiled: measure without it
        print(f"analyze(--assume-compiled forward) raised {type(exc).__name__}: {exc}; measuring without it",
              file=sys.stderr)
        assume = False
        size = corpus_scaling(args.sample, assume)
    depth = depth_scaling(depths)
    print(render(size, depth, assume))
    if args.json:
        args.json.write_text(json.dumps({"size": size, "depth": depth, "assume_compiled": assume}, indent=1) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
