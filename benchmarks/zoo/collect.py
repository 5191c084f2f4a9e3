"""The zoo's runtime truth: each script run as its own program under vtlint's runtime harness
(`vtlint.runtime.harness.run_harness`: TORCH_TRACE + the inline hook, a timeout, its process
group stopped), two at a time at most, niced; `torch.compile`'s backend forced to `eager` from
the outside (`backend/sitecustomize.py`).

What a run costs is its trace, so the trace is what is cached: per (torch, transformers,
diffusers) version, backend file and script hash, under `benchmarks/.scratch/zoo/runtime/`, as
`<script>/<sha>.tar.gz` (the TORCH_TRACE log, the hook's records, how the harness ended). The
facts are read from it with `vtlint.runtime.step.facts_from_trace(..., library_frames=True)`, as
`run_step` reads a trace, and kept beside it per hash of vtlint's runtime code: when vtlint's
reading of a trace changes, the truth is read again, never run again. A stopped collection picks
up where it stopped (an archive is written only once its run is over).

    python benchmarks/zoo/collect.py [--jobs 2] [--timeout 300] [--limit N] [--only FAMILY,...]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SCRATCH = HERE.parent / ".scratch" / "zoo"
sys.path.insert(0, str(HERE))

from scripts import STYLES, Script, load_manifest, write_all  # noqa: E402

import vtlint  # noqa: E402
from vtlint.runtime.harness import HarnessRun, run_harness, terminate_raises  # noqa: E402
from vtlint.runtime.step import RuntimeFacts, facts_from_trace  # noqa: E402

BACKEND = HERE / "backend"
NICE = 10
# the code that turns a trace into facts: when it changes, the cached facts are read again
READER = sorted([*Path(vtlint.__file__).parent.joinpath("runtime").rglob("*.py"),
                 Path(vtlint.__file__).parent / "trace.py"])


def scripts_dir() -> Path:
    return SCRATCH / "scripts"


def cache_dir(versions: dict[str, str]) -> Path:
    """Per library versions, and per the backend file (another backend is another truth)."""
    backend = hashlib.sha256((BACKEND / "sitecustomize.py").read_bytes()).hexdigest()[:8]
    names = "_".join(f"{name}-{versions[name]}" for name in ("torch", "transformers", "diffusers"))
    return SCRATCH / "runtime" / f"{names}_backend-{backend}"


def archive(cache: Path, script: Script) -> Path:
    return cache / script.folder / f"{script.digest}.tar.gz"


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


def run_one(script: Script, target: Path, timeout: float) -> HarnessRun:
    """Run the script under the trace; archive the trace and how the run ended at `target`."""
    with tempfile.TemporaryDirectory(prefix="zoo-") as scratch:
        trace = Path(scratch) / "trace"
        trace.mkdir()
        run = run_harness([sys.executable, "run.py"], cwd=scripts_dir() / script.folder, trace_dir=trace,
                          output_file=Path(scratch) / "output.txt", timeout=timeout)
        (trace / "harness.json").write_text(json.dumps(dataclasses.asdict(run)), encoding="utf-8")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".partial")
        with tarfile.open(partial, "w:gz") as tar:
            tar.add(trace, arcname="trace")
        partial.replace(target)
    return run


def collect(scripts: list[Script], versions: dict[str, str], jobs: int, timeout: float) -> dict[str, float]:
    """Run what the cache lacks; return each run's wall time."""
    cache = cache_dir(versions)
    todo = [s for s in in_order(scripts) if not archive(cache, s).exists()]
    os.nice(max(0, NICE - os.nice(0)))  # the runs inherit it: the machine stays usable
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(BACKEND), os.environ.get("PYTHONPATH", "")) if p)
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    print(f"runtime: {len(scripts) - len(todo)} of {len(scripts)} scripts cached, {len(todo)} to run", file=sys.stderr)
    walls: dict[str, float] = {}
    started = time.perf_counter()
    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        with terminate_raises():  # SIGTERM: the runs in progress end, the queued ones never start
            futures = {pool.submit(run_one, s, archive(cache, s), timeout): s for s in todo}
            for done, future in enumerate(as_completed(futures), 1):
                script, run = futures[future], future.result()
                walls[script.folder] = run.duration_s
                print(f"[{done}/{len(todo)} {time.perf_counter() - started:.0f} s] {'ok' if run.ok else 'FAILED'} "
                      f"{script.folder} ({run.duration_s:.0f} s)", file=sys.stderr, flush=True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return walls


def _reader_hash() -> str:
    digest = hashlib.sha256()
    for path in READER:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def facts(cache: Path, script: Script) -> RuntimeFacts:
    """The script's facts as the current vtlint reads its archived trace (kept per reader hash)."""
    kept = archive(cache, script).with_name(f"{script.digest}.facts-{_reader_hash()}.json")
    if kept.exists():
        return RuntimeFacts.load(kept)
    with tempfile.TemporaryDirectory(prefix="zoo-") as scratch:
        with tarfile.open(archive(cache, script)) as tar:
            tar.extractall(scratch, filter="data")
        trace = Path(scratch) / "trace"
        run = HarnessRun(**json.loads((trace / "harness.json").read_text(encoding="utf-8")))
        read = facts_from_trace(trace, scripts_dir() / script.folder, run, library_frames=True)
    read.save(kept)
    return read


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
