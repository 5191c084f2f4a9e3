"""Speed of vtlint's static pass on a large real corpus, against the physical
floor (LibCST parsing the same files and nothing else) and a peer (TorchFix).

The corpus is a copy of the `.py` files of the installed transformers package
and of `torch/nn` (copied so that discovery treats them as project code, not
as an installed package). In the same run, each in its own process:

  parse-only        benchmarks/speed/parse_only.py (LibCST, one process)
  vtlint cold -j1   a fresh cache folder (VTLINT_CACHE_DIR), --jobs 1
  vtlint cold -j2   another fresh cache folder, --jobs 2
  vtlint warm -j1   the cache of the cold -j1 run, the files unchanged
  TorchFix          torchfix 0.7.0 in its own venv (it pins an older LibCST), -j 1

    python benchmarks/speed/run.py [--sample N] [--models GLOB] [--json FILE]

`--models '[a-b]*'` takes transformers/models/<GLOB> alone (issue 33's sample: 181 files,
72k lines). The three vtlint reports (cold -j1, cold -j2, warm -j1) must be byte-identical.

Ratios are what to compare; absolute times depend on the machine and its load.
CPU time (user + system, children included) is the fair measure on a busy
machine for everything but the --jobs speed-up, which is a wall-time ratio."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCH = HERE.parent
sys.path.insert(0, str(HERE))

from measure import Measurement, measure  # noqa: E402

SCRATCH = BENCH / ".scratch" / "speed"
TORCHFIX_VENV = BENCH / ".venvs" / "torchfix"
TORCHFIX = "torchfix==0.7.0"
TARGETS = {"full_vs_parse": 1.5, "jobs2_speedup": 1.7, "warm_speedup": 20.0, "peak_mb": 1024.0}


def site_package(name: str) -> Path:
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{name} is not installed in this interpreter")
    return Path(next(iter(spec.submodule_search_locations)))


def corpus_files(sample: int, models: str | None = None) -> list[tuple[Path, str]]:
    """(source, relative target) of every sample-th .py file of transformers and torch/nn, or of the
    transformers model folders `models` matches."""
    found = []
    if models is not None:
        base = site_package("transformers") / "models"
        for folder in sorted(p for p in base.glob(models) if p.is_dir()):
            found += [(p, p.relative_to(base).as_posix()) for p in sorted(folder.rglob("*.py"))]
        return found[::sample]
    for base, prefix in ((site_package("transformers"), "transformers"), (site_package("torch") / "nn", "torch/nn")):
        found += [(p, f"{prefix}/{p.relative_to(base).as_posix()}") for p in sorted(base.rglob("*.py"))]
    return found[::sample]


def build_corpus(target: Path, files: list[tuple[Path, str]], copies: int = 0) -> int:
    """Copy the files (with `copies`, that many times under copy0/, copy1/, ...) and return the line count."""
    shutil.rmtree(target, ignore_errors=True)
    lines = 0
    for copy in range(max(copies, 1)):
        for source, rel in files:
            dest = target / (f"copy{copy}/{rel}" if copies else rel)
            dest.parent.mkdir(parents=True, exist_ok=True)
            data = source.read_bytes()
            dest.write_bytes(data)
            lines += data.count(b"\n")
    (target / "pyproject.toml").write_text("[tool.vtlint]\n", encoding="utf-8")
    return lines


def torchfix_bin() -> Path:
    """TorchFix in its own venv under benchmarks/.venvs (never the project's)."""
    binary = TORCHFIX_VENV / "bin" / "torchfix"
    if not binary.exists():
        subprocess.run([sys.executable, "-m", "venv", str(TORCHFIX_VENV)], check=True)
        subprocess.run([str(TORCHFIX_VENV / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", TORCHFIX],
                       check=True)
    return binary


INTERNAL_ERROR = 2  # vtlint's exit status for a crash


def vtlint(corpus: Path, cache: Path, jobs: int, label: str, assume: bool) -> Measurement:
    argv = [sys.executable, "-m", "vtlint", "check", ".", *(["--assume-compiled", "forward"] if assume else []),
            "--jobs", str(jobs), "--exit-zero", "-q", "--format", "json", "-o", str(cache.parent / f"{label}.json")]
    return measure(label, argv, cwd=corpus, env={"VTLINT_CACHE_DIR": str(cache), "VTLINT_DEBUG": "1"})


def run_all(corpus: Path, with_torchfix: bool) -> dict[str, Measurement]:
    """With `--assume-compiled forward`; if vtlint crashes that way, the crash is
    reported and the vtlint runs are measured again without it (discovered entries only)."""
    caches = SCRATCH / "caches"
    shutil.rmtree(caches, ignore_errors=True)
    caches.mkdir(parents=True)
    runs = {"parse": measure("parse-only (LibCST)", [sys.executable, str(HERE / "parse_only.py"), "."], cwd=corpus)}
    assume = True
    runs["cold1"] = vtlint(corpus, caches / "a", 1, "vtlint cold -j1", assume)
    if runs["cold1"].returncode == INTERNAL_ERROR:
        runs["crash"] = replace(runs["cold1"], label="CRASH -j1 --assume")
        print(f"vtlint --assume-compiled forward crashed:\n{runs['crash'].output[-3000:]}", file=sys.stderr)
        assume = False
        shutil.rmtree(caches / "a", ignore_errors=True)
        runs["cold1"] = vtlint(corpus, caches / "a", 1, "vtlint cold -j1 (no --assume)", assume)
    suffix = "" if assume else " (no --assume)"
    runs["warm1"] = vtlint(corpus, caches / "a", 1, f"vtlint warm -j1{suffix}", assume)
    runs["cold2"] = vtlint(corpus, caches / "b", 2, f"vtlint cold -j2{suffix}", assume)
    if with_torchfix:
        runs["torchfix"] = measure("TorchFix -j1", [str(torchfix_bin()), "-j", "1", "."], cwd=corpus)
    return runs


def identical_reports(runs: dict[str, Measurement]) -> bool:
    """Whether the cold -j1, cold -j2 and warm -j1 reports are the same bytes (the walks' merge is
    deterministic, the cache changes nothing)."""
    reports = [SCRATCH / "caches" / f"{runs[key].label}.json" for key in ("cold1", "cold2", "warm1")]
    return all(path.is_file() for path in reports) and len({path.read_bytes() for path in reports}) == 1


def ratios(runs: dict[str, Measurement]) -> dict[str, float]:
    parse, cold1, cold2, warm1 = runs["parse"], runs["cold1"], runs["cold2"], runs["warm1"]
    out = {
        "full_vs_parse_cpu": cold1.cpu_s / parse.cpu_s,
        "full_vs_parse_wall": cold1.wall_s / parse.wall_s,
        "jobs2_speedup_wall": cold1.wall_s / cold2.wall_s,
        "warm_speedup_wall": cold1.wall_s / warm1.wall_s,
        "warm_speedup_cpu": cold1.cpu_s / warm1.cpu_s,
        "peak_mb": max(m.peak_rss_mb for k, m in runs.items() if k not in ("torchfix", "crash")),
    }
    if "torchfix" in runs:
        out["torchfix_vs_parse_cpu"] = runs["torchfix"].cpu_s / parse.cpu_s
        out["vtlint_vs_torchfix_cpu"] = cold1.cpu_s / runs["torchfix"].cpu_s
    return out


def machine() -> str:
    load = os.getloadavg()
    return (f"{platform.machine()}, {os.cpu_count()} cores, no GPU, Python {platform.python_version()}, "
            f"load average {load[0]:.1f} at the end")


def render(runs: dict[str, Measurement], r: dict[str, float], files: int, lines: int,
           summary: dict[str, object]) -> str:
    out = [f"corpus: {files} files, {lines} lines ({summary.get('entries', '?')} entries walked, "
           f"{summary.get('findings', '?')} findings); {machine()}", ""]
    parse = runs["parse"]
    out.append(f"{'run':<22} {'wall×parse':>10} {'cpu×parse':>10} {'peak MB':>8} {'max proc MB':>11} {'exit':>5}")
    for m in runs.values():
        out.append(f"{m.label:<22} {m.wall_s / parse.wall_s:>10.2f} {m.cpu_s / parse.cpu_s:>10.2f} "
                   f"{m.peak_rss_mb:>8.0f} {m.max_rss_mb:>11.0f} {m.returncode:>5}")
    out.append(f"reports byte-identical (cold -j1, cold -j2, warm -j1): {'yes' if identical_reports(runs) else 'NO'}")
    out.append("")
    checks = [
        ("full analysis / parse-only (CPU)", r["full_vs_parse_cpu"], f"<= {TARGETS['full_vs_parse']}",
         r["full_vs_parse_cpu"] <= TARGETS["full_vs_parse"]),
        ("--jobs 2 speed-up (wall)", r["jobs2_speedup_wall"], f">= {TARGETS['jobs2_speedup']}",
         r["jobs2_speedup_wall"] >= TARGETS["jobs2_speedup"]),
        ("warm speed-up (wall)", r["warm_speedup_wall"], f">= {TARGETS['warm_speedup']}",
         r["warm_speedup_wall"] >= TARGETS["warm_speedup"]),
        ("peak memory MB", r["peak_mb"], f"< {TARGETS['peak_mb']:.0f}", r["peak_mb"] < TARGETS["peak_mb"]),
    ]
    for name, value, target, ok in checks:
        out.append(f"{name:<34} {value:>8.2f}  target {target:<8} {'met' if ok else 'MISSED'}")
    if "torchfix" in runs:
        out.append(f"{'TorchFix / parse-only (CPU)':<34} {r['torchfix_vs_parse_cpu']:>8.2f}")
        out.append(f"{'vtlint cold -j1 / TorchFix (CPU)':<34} {r['vtlint_vs_torchfix_cpu']:>8.2f}")
    met = sum(ok for *_, ok in checks)
    out.append("")
    out.append(f"SUMMARY: {met}/4 speed targets met; full/parse {r['full_vs_parse_cpu']:.2f}× CPU, "
               f"-j2 {r['jobs2_speedup_wall']:.2f}×, warm {r['warm_speedup_wall']:.1f}×, peak {r['peak_mb']:.0f} MB "
               f"on {files} files")
    return "\n".join(out)


def vtlint_summary(report: Path) -> dict[str, object]:
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}
    return {"entries": len(data.get("entries", [])), "findings": len(data.get("findings", [])),
            "files": data.get("files_analyzed")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=1, help="take every N-th file of the corpus (default: all)")
    parser.add_argument("--models", help="only transformers/models/<GLOB> (e.g. '[a-b]*'), without torch/nn")
    parser.add_argument("--no-torchfix", action="store_true", help="skip the TorchFix run")
    parser.add_argument("--json", type=Path, help="also write the measurements as JSON")
    args = parser.parse_args(argv)
    files = corpus_files(args.sample, args.models)
    corpus = SCRATCH / "corpus"
    lines = build_corpus(corpus, files)
    started = time.time()
    runs = run_all(corpus, not args.no_torchfix)
    for m in runs.values():
        if m.returncode not in (0, 1):
            print(f"{m.label} exited with {m.returncode}:\n{m.output[-2000:]}", file=sys.stderr)
    r = ratios(runs)
    summary = vtlint_summary(SCRATCH / "caches" / f"{runs['cold1'].label}.json")
    print(render(runs, r, len(files), lines, summary))
    if args.json:
        args.json.write_text(json.dumps({
            "date": time.strftime("%Y-%m-%d", time.gmtime(started)), "machine": machine(), "files": len(files),
            "lines": lines, "runs": {k: m.to_dict() for k, m in runs.items()}, "ratios": r, "vtlint": summary,
            "identical_reports": identical_reports(runs),
        }, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
