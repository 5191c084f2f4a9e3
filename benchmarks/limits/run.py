"""Peak memory and time of `vtlint check` on huge inputs (a table, not a test).

    python benchmarks/limits/run.py            # 50,000-line module, 5,000-file tree, pathological files
    python benchmarks/limits/run.py --huge     # also a 10 MB module of code (minutes on 2 cores)

Each case runs `python -m vtlint check` in a fresh process with an empty cache;
peak RSS is the largest of that process and its workers (os.wait4's rusage)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ENTRY = "import torch\n\n\n@torch.compile\ndef entry_{i}(x, n):\n    print(n)\n    return helper_{i}(x) * n\n\n\n"


def module_of(lines: int) -> str:
    """Helpers plus compiled entries that inline them, about `lines` lines."""
    parts, i, count = [], 0, 0
    while count < lines:
        parts.append(f"def helper_{i}(x):\n    y = x + {i}\n    return y * 2\n\n\n")
        if i % 50 == 0:
            parts.append(ENTRY.format(i=i).replace("import torch\n\n\n", ""))
        count += sum(p.count("\n") for p in parts[-2:]) if i % 50 == 0 else 5
        i += 1
    return "import torch\n\n\n" + "".join(parts)


def case_big_module(root: Path) -> None:
    (root / "big.py").write_text(module_of(50_000))


def case_tree(root: Path) -> None:
    for i in range(5_000):
        pkg = root / f"pkg_{i // 100:02d}"
        pkg.mkdir(exist_ok=True)
        text = ENTRY.format(i=i) + f"def helper_{i}(x):\n    return x + {i}\n" if i % 10 == 0 else module_of(12)
        (pkg / f"mod_{i:04d}.py").write_text(text)


def case_pathological(root: Path) -> None:
    (root / "long_sum.py").write_text("x = " + " + ".join(["1"] * 2900) + "\n")
    (root / "parens.py").write_text("x = " + "(" * 5000 + "1" + ")" * 5000 + "\n")
    (root / "lambdas.py").write_text("f = " + "lambda: " * 5000 + "1\n")
    (root / "elifs.py").write_text("if a:\n    pass\n" + "elif a:\n    pass\n" * 5000)


def case_huge(root: Path) -> None:
    (root / "huge.py").write_text(module_of(870_000))  # ~10 MB of code


def measure(name: str, build: Callable[[Path], None], jobs: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="vtlint-limits-") as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        build(root)
        files = list(root.rglob("*.py"))
        size = sum(f.stat().st_size for f in files)
        lines = sum(f.read_bytes().count(b"\n") for f in files)
        env = {**os.environ, "VTLINT_CACHE_DIR": str(Path(tmp) / "cache")}
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "vtlint", "check", ".", "--format", "json", "--jobs", str(jobs)],
                                cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out = proc.stdout.read() if proc.stdout else b""
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        report = json.loads(out) if out else {}
        return {"case": name, "jobs": jobs, "files": len(files), "lines": lines, "MB": round(size / 1e6, 1),
                "wall_s": round(wall, 1), "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
                "peak_rss_MiB": usage.ru_maxrss // 1024, "exit": os.waitstatus_to_exitcode(status),
                "findings": len(report.get("findings", [])), "notes": len(report.get("notifications", []))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--huge", action="store_true", help="also a 10 MB module of code")
    args = parser.parse_args()
    cases = [("50k-line module", case_big_module, 1), ("5,000-file tree", case_tree, 1),
             ("5,000-file tree", case_tree, 2), ("pathological files", case_pathological, 1)]
    if args.huge:
        cases.append(("10 MB module", case_huge, 1))
    rows = []
    for name, build, jobs in cases:
        rows.append(measure(name, build, jobs))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    keys = list(rows[0])
    widths = [max(len(k), *(len(str(r[k])) for r in rows)) for k in keys]
    print("  ".join(k.ljust(w) for k, w in zip(keys, widths)))
    for row in rows:
        print("  ".join(str(row[k]).ljust(w) for k, w in zip(keys, widths)))


if __name__ == "__main__":
    main()
