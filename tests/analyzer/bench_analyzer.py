"""Speed of the static pass on a big corpus (not a test: run it by hand).

    python -m tests.analyzer.bench_analyzer PATH [PATH...]

Prints, as ratios: full analysis / LibCST parse-only, jobs=1 / jobs=2, and
cold / warm cache. Defaults to the installed torch/nn package."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import libcst as cst

from vtlint.analyzer import analyze
from vtlint.analyzer.files import discover, read_source
from vtlint.config import Config


def _timed(fn) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> int:
    if len(sys.argv) > 1:
        paths = [Path(p).resolve() for p in sys.argv[1:]]
    else:
        import importlib.util

        spec = importlib.util.find_spec("torch")
        assert spec and spec.origin
        paths = [Path(spec.origin).parent / "nn"]
    root = paths[0] if paths[0].is_dir() else paths[0].parent
    config = Config(root=root, exclude=(), respect_gitignore=False)
    files = discover(paths, config).files
    texts = [read_source(f) for f in files]
    print(f"{len(files)} files, {sum(len(t) for t in texts) / 1e6:.1f} MB")
    parse = _timed(lambda: [cst.parse_module(t) for t in texts])
    one = _timed(lambda: analyze(files, config, jobs=1, use_cache=False))
    two = _timed(lambda: analyze(files, config, jobs=2, use_cache=False))
    with tempfile.TemporaryDirectory() as cache_dir:
        os.environ["VTLINT_CACHE_DIR"] = cache_dir
        cold = _timed(lambda: analyze(files, config, jobs=1, use_cache=True))
        warm = _timed(lambda: analyze(files, config, jobs=1, use_cache=True))
    print(f"parse-only {parse:.2f}s | analyze jobs=1 {one:.2f}s ({one / parse:.2f}x parse) | "
          f"jobs=2 {two:.2f}s (speed-up {one / two:.2f}x) | cold cache {cold:.2f}s, warm {warm:.3f}s "
          f"(speed-up {cold / warm:.0f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
