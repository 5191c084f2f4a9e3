"""The zoo's runtime truth: each script run as its own program through vtlint's runtime step
(TORCH_TRACE + the inline hook, library frames kept as entries), with a timeout, two at a time
at most, niced; `torch.compile`'s backend forced to `eager` from the outside
(`backend/sitecustomize.py`).

The facts are cached per (torch, transformers, diffusers) version and script hash under
`benchmarks/.scratch/zoo/runtime/`; a collection that is stopped picks up where it stopped (a
script is written to the cache only once its run is over).

    python benchmarks/zoo/collect.py [--jobs 2] [--timeout 300] [--limit N] [--only FAMILY,...]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SCRATCH = HERE.parent / ".scratch" / "zoo"
sys.path.insert(0, str(HERE))

from scripts import STYLES, Script, load_manifest, write_all  # noqa: E402

from vtlint.runtime.step import RuntimeFacts, run_step  # noqa: E402

BACKEND = HERE / "backend"
NICE = 10


def scripts_dir() -> Path:
    return SCRATCH / "scripts"


def cache_dir(versions: dict[str, str]) -> Path:
    """Per library versions, and per the backend file (another backend is another truth)."""
    backend = hashlib.sha256((BACKEND / "sitecustomize.py").read_bytes()).hexdigest()[:8]
    names = "_".join(f"{name}-{versions[name]}" for name in ("torch", "transformers", "diffusers"))
    return SCRATCH / "runtime" / f"{names}_backend-{backend}"


def cached(cache: Path, script: Script) -> Path:
    return cache / script.folder / f"{script.digest}.json"


def prepare(manifest: dict[str, Any]) -> list[Script]:
    """The scripts written under the scratch folder, whose pyproject.toml stops vtlint's search
    for a project root there (each script's folder is analyzed as its own project)."""
    out = scripts_dir()
    out.mkdir(parents=True, exist_ok=True)
    (out / "pyproject.toml").write_text("[tool.vtlint]\n", encoding="utf-8")
    return write_all(manifest, out)


def in_order(scripts: Iterable[Script]) -> list[Script]:
    """Style by style (the three invariance styles of every model first), so that a partial
    collection covers every model."""
    return sorted(scripts, key=lambda s: (STYLES.index(s.style), s.library, s.model))


def run_one(script: Script, timeout: float) -> RuntimeFacts:
    return run_step([sys.executable, "run.py"], scripts_dir() / script.folder, timeout=timeout, library_frames=True)


def collect(scripts: list[Script], versions: dict[str, str], jobs: int, timeout: float) -> dict[str, float]:
    """Run what the cache lacks; return each run's wall time."""
    cache = cache_dir(versions)
    todo = [s for s in in_order(scripts) if not cached(cache, s).exists()]
    os.nice(max(0, NICE - os.nice(0)))  # the runs inherit it: the machine stays usable
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(BACKEND), os.environ.get("PYTHONPATH", "")) if p)
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    print(f"runtime: {len(scripts) - len(todo)} of {len(scripts)} scripts cached, {len(todo)} to run", file=sys.stderr)
    walls: dict[str, float] = {}
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_one, s, timeout): s for s in todo}
        for done, future in enumerate(as_completed(futures), 1):
            script = futures[future]
            facts = future.result()
            cached(cache, script).parent.mkdir(parents=True, exist_ok=True)
            facts.save(cached(cache, script))
            walls[script.folder] = facts.harness.get("duration_s", 0.0)
            status = "ok" if facts.harness.get("exit_code") == 0 else "FAILED"
            print(f"[{done}/{len(todo)} {time.perf_counter() - started:.0f} s] {status} {script.folder} "
                  f"({walls[script.folder]:.0f} s)", file=sys.stderr, flush=True)
    return walls


def select(scripts: list[Script], limit: int | None, only: set[str] | None) -> list[Script]:
    """The first `limit` models (manifest order), or only these families."""
    if only:
        scripts = [s for s in scripts if s.family in only]
    if limit:
        keep = list(dict.fromkeys(s.model for s in scripts))[:limit]
        scripts = [s for s in scripts if s.model in keep]
    return scripts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=300.0, help="one script's time limit in seconds")
    parser.add_argument("--limit", type=int, help="only the first N models")
    parser.add_argument("--only", help="only these families (comma-separated)")
    args = parser.parse_args(argv)
    manifest = load_manifest()
    scripts = select(prepare(manifest), args.limit, set(args.only.split(",")) if args.only else None)
    started = time.perf_counter()
    walls = collect(scripts, manifest["versions"], args.jobs, args.timeout)
    print(f"collected {len(walls)} scripts in {time.perf_counter() - started:.0f} s "
          f"(sum of runs {sum(walls.values()):.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
