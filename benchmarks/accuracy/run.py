"""Accuracy of vtlint's static predictions on code nobody here wrote.

Three corpora: `exportdb` (the example programs shipped in the torch wheel,
`torch/_export/db/examples/`, each with its example inputs), `transformers`
(real models of `models.py`: small configs, random weights) and `programs`
(`programs/NAME/`: multi-file training and inference scripts written the way
ML engineers write them, run as `python train.py` would). The harness
(`harness.py`) runs every case once under `torch.compile(backend="eager")` in
ONE subprocess, through `vtlint.runtime` (TORCH_TRACE + the inline hook), so
the runtime facts are the ones vtlint itself gathers. The static pass analyzes
the same files with each case's `forward` as `--entry`, each transformers model
with the script its user writes around it (`models.Arch.script`: the config, the
model, `eval()`, one call; `--no-scripts` leaves them out, as for a config loaded
from disk); a program is analyzed as
`vtlint check .` would, with the entries the static pass discovers itself (what
the run compiled and the pass did not find counts as missed). Both traces are joined
on `Event.key` (DESIGN.md's join key), per kind and per construct.

Only predictions for entries the run compiled are scored; the others are
counted as "not exercised". A prediction the run exercised and did not see is
a false alarm; an observed fact the static pass did not predict is a miss.

    python benchmarks/accuracy/run.py [--corpus NAME ...] [--limit N] [--save FILE] [--json FILE]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRATCH = HERE.parent / ".scratch" / "accuracy"
sys.path.insert(0, str(HERE))

from harness import CORPORA  # noqa: E402
from models import ARCHS  # noqa: E402
from exercised import entry_compiled  # noqa: E402
import per_program  # noqa: E402
from per_program import analyze_each, load_prediction, save_prediction  # noqa: E402
from scoring import Report, Score, score  # noqa: E402

from vtlint.analyzer import Prediction, analyze  # noqa: E402
from vtlint.analyzer.files import discover  # noqa: E402
from vtlint.config import Config  # noqa: E402
from vtlint.runtime.step import RuntimeFacts, run_step  # noqa: E402
from vtlint.trace import Action, Event  # noqa: E402

SCRIPTS = "transformers_scripts"  # one script per architecture, as its user writes it (models.Arch.script)
# The transformers modules a model's forward can reach besides its own package.
TRANSFORMERS_SHARED = ("transformers/*.py", "transformers/utils", "transformers/integrations",
                       "transformers/generation")


# --- the corpus --------------------------------------------------------------


def _site_package(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{name} is not installed in this interpreter")
    return Path(next(iter(spec.submodule_search_locations)))


def prepare(scratch: Path) -> None:
    """exportdb/ (verbatim copies), transformers/ (a copy, so that the trace
    counts its frames as project code: installed packages are not), programs/."""
    scratch.mkdir(parents=True, exist_ok=True)
    (scratch / "pyproject.toml").write_text("[tool.vtlint]\n", encoding="utf-8")
    examples = _site_package("torch") / "_export" / "db" / "examples"
    target = scratch / "exportdb"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir()
    for path in sorted(examples.glob("*.py")):
        if path.name != "__init__.py":
            shutil.copyfile(path, target / path.name)
    (target / "__init__.py").write_text("", encoding="utf-8")
    source = _site_package("transformers")
    stamp = scratch / "transformers.stamp"
    wanted = f"{source}:{(source / '__init__.py').stat().st_mtime_ns}"
    if not stamp.exists() or stamp.read_text(encoding="utf-8") != wanted:
        shutil.rmtree(scratch / "transformers", ignore_errors=True)
        shutil.copytree(source, scratch / "transformers", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        stamp.write_text(wanted, encoding="utf-8")
    shutil.rmtree(scratch / "programs", ignore_errors=True)
    shutil.copytree(HERE / "programs", scratch / "programs", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    scripts = scratch / SCRIPTS
    shutil.rmtree(scripts, ignore_errors=True)
    scripts.mkdir()
    for arch in ARCHS:
        (scripts / f"run_{arch.name}.py").write_text(arch.script(), encoding="utf-8")


def static_paths(scratch: Path, corpora: tuple[str, ...], limit: int | None, scripts: bool = True) -> list[Path]:
    paths = [scratch / "exportdb"] if "exportdb" in corpora else []
    if "transformers" in corpora:
        for pattern in TRANSFORMERS_SHARED:
            paths += sorted(scratch.glob(pattern)) if "*" in pattern else [scratch / pattern]
        paths += sorted({(scratch / arch.path).parent for arch in ARCHS[:limit]})
        if scripts:  # the user's script around each model: its config, eval(), a call
            paths += [scratch / SCRIPTS / f"run_{arch.name}.py" for arch in ARCHS[:limit]]
    return paths


# --- the two traces ----------------------------------------------------------


def observe(scratch: Path, timeout: float, corpora: tuple[str, ...],
            limit: int | None) -> tuple[RuntimeFacts, list[dict[str, object]]]:
    results = scratch / "cases.jsonl"
    results.unlink(missing_ok=True)
    command = [sys.executable, str(HERE / "harness.py"), str(scratch), str(results), ",".join(corpora), str(limit or 0)]
    facts = run_step(command, scratch, timeout=timeout)
    cases = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()] if results.exists() else []
    return facts, cases


def entries_of(cases: list[dict[str, object]], facts: RuntimeFacts) -> list[str]:
    """The cases' own entries, and for programs every function the run compiled."""
    named = {str(c["entry"]) for c in cases if c["entry"]}
    compiled = {e for e in facts.coverage if e.startswith("programs/")}
    return sorted(named | compiled)


CRASHED = per_program.CRASHED  # entry groups the static pass crashed on (their facts count as misses)


def _analyze(scratch: Path, paths: list[Path], entries: tuple[str, ...]) -> Prediction:
    config = Config(root=scratch, entry_points=entries)
    return analyze(discover(paths, config).files, config, jobs=2, use_cache=True)


def _analyze_isolated(scratch: Path, paths: list[Path], entries: list[str]) -> Prediction:
    """The whole corpus at once; if the static pass crashes, again one group of entries
    (exportdb, each transformers model) at a time, so one crash loses one group."""
    try:
        return _analyze(scratch, paths, tuple(entries))
    except Exception as exc:  # noqa: BLE001 - an analyzer crash is a result to report, not the end
        print(f"static pass crashed ({type(exc).__name__}: {exc}); analyzing each group alone", file=sys.stderr)
    groups: dict[str, list[str]] = defaultdict(list)
    for entry in entries:
        path = entry.rpartition(":")[0]
        groups["exportdb" if path.startswith("exportdb/") else path.rpartition("/")[0]].append(entry)
    merged = Prediction()
    for group, mine in sorted(groups.items()):
        folder = scratch / group
        shared = [p for p in paths if not (p == scratch / "exportdb" or p.parent == scratch / "transformers" / "models")]
        try:
            part = _analyze(scratch, [folder, *([] if group == "exportdb" else shared)], tuple(mine))
        except Exception as exc:  # noqa: BLE001
            CRASHED.append(f"{group}: {type(exc).__name__}: {str(exc)[:120]}")
            continue
        merged.events += part.events
        merged.texts.update(part.texts)
    return merged


def predict(scratch: Path, entries: list[str], corpora: tuple[str, ...], limit: int | None,
            scripts: bool = True) -> Prediction:
    """One project for exportdb + transformers; each program folder its own (see per_program.py)."""
    prediction = Prediction()
    paths = static_paths(scratch, corpora, limit, scripts)
    if paths:
        prediction = _analyze_isolated(scratch, paths, [e for e in entries if not e.startswith("programs/")])
    if "programs" in corpora:
        folders = sorted(p for p in (scratch / "programs").glob("*") if p.is_dir())
        each = analyze_each(folders, scratch)  # as a user runs it: no entry named from the run
        prediction.events += each.events
        prediction.texts.update(each.texts)
    return prediction


# --- output ----------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "   -" if value is None else f"{100 * value:4.0f}%"


def _line(texts: dict[str, str], event: Event) -> str:
    lines = texts.get(event.location.path, "").splitlines()
    line = event.location.line
    return lines[line - 1].strip()[:90] if 0 < line <= len(lines) else ""


def _describe(event: Event) -> str:
    if event.action is Action.GRAPH_BREAK:
        return f"{event.gb_id} {event.gb_type}"
    if event.action is Action.WRAP:
        return f"{event.source} ({event.guard or event.guard_kind})"
    if event.action is Action.INLINE:
        return f"calls {event.callee}"
    return f"{event.source} {event.guard or ''}"


def render(report: Report, cases: list[dict[str, object]], texts: dict[str, str], elapsed: dict[str, float],
           torch_version: str | None, by_corpus: dict[str, Report]) -> str:
    out = []
    ran = [c for c in cases if not c["error"]]
    out.append(f"cases: {len(cases)} ({len(ran)} ran, {len(cases) - len(ran)} raised), torch {torch_version}")
    out.append("")
    out.append(f"{'kind':<16} {'TP':>5} {'FP':>5} {'FN':>5} {'precision':>10} {'recall':>7} {'not exercised':>14}")
    for kind, s in report.kinds.items():
        out.append(f"{kind:<16} {s.tp:>5} {s.fp:>5} {s.fn:>5} {_pct(s.precision):>10} {_pct(s.recall):>7} "
                   f"{s.unexercised:>14}")
    loose = report.loose["baked constant"]
    out.append(f"{'  (on Source)':<16} {loose.tp:>5} {loose.fp:>5} {loose.fn:>5} {_pct(loose.precision):>10} "
               f"{_pct(loose.recall):>7}   constants joined on (entry, Source), ignoring the line")
    same = sum(1 for _, p, o in report.graphs if p == o)
    out.append(f"{'graph count':<16} {same}/{len(report.graphs)} entries predicted exactly")
    out.append("")
    out.append(f"{'corpus':<20} {'kind':<16} {'TP':>5} {'FP':>5} {'FN':>5} {'precision':>10} {'recall':>7}")
    for corpus, sub in by_corpus.items():
        for kind, s in sub.kinds.items():
            out.append(f"{corpus:<20} {kind:<16} {s.tp:>5} {s.fp:>5} {s.fn:>5} {_pct(s.precision):>10} "
                       f"{_pct(s.recall):>7}")
        exact = sum(1 for _, p, o in sub.graphs if p == o)
        out.append(f"{corpus:<20} {'graph count':<16} {exact}/{len(sub.graphs)} entries exact")
    out.append("")
    out.append(f"{'kind':<16} {'construct':<44} {'TP':>5} {'FP':>5} {'FN':>5} {'prec':>6} {'recall':>6}")
    for (kind, construct), s in sorted(report.constructs.items(), key=lambda kv: (kv[0][0], -(kv[1].fp + kv[1].fn))):
        out.append(f"{kind:<16} {construct[:44]:<44} {s.tp:>5} {s.fp:>5} {s.fn:>5} {_pct(s.precision):>6} "
                   f"{_pct(s.recall):>6}")
    out.append("")
    out.append("graph count per entry (predicted / observed):")
    for entry, predicted, observed in sorted(report.graphs):
        mark = "" if predicted == observed else "   <-- differs"
        out.append(f"  {entry}: {predicted} / {observed}{mark}")
    if CRASHED:
        out.append("")
        out.append("the static pass crashed on (their facts are counted as misses):")
        out += [f"  {line}" for line in CRASHED]
    failed = [c for c in cases if c["error"]]
    if failed:
        out.append("")
        out.append("cases that raised under torch.compile (their traced part is still scored):")
        out += [f"  {c['name']}: {c['error']}" for c in failed]
    for title, rows in (("misses (observed, not predicted)", report.misses),
                        ("false alarms (predicted, exercised, not observed)", report.false_alarms)):
        out.append("")
        out.append(f"{title}: {len(rows)}")
        for kind, construct, event in sorted(rows, key=lambda r: (r[0], r[1], r[2].location.path, r[2].location.line)):
            out.append(f"  [{kind} / {construct}] {event.location.path}:{event.location.line} {_describe(event)}"
                       f"  | {_line(texts, event)}")
    totals = Score(*(sum(getattr(s, f) for s in report.kinds.values()) for f in ("tp", "fp", "fn", "unexercised")))
    out.append("")
    out.append(f"SUMMARY: precision {_pct(totals.precision).strip()}, recall {_pct(totals.recall).strip()} "
               f"over {totals.tp + totals.fp + totals.fn} facts ({totals.tp} matched, {totals.fp} false alarms, "
               f"{totals.fn} misses) in {len(ran)} programs; graph counts exact for {same}/{len(report.graphs)} "
               f"entries; runtime {elapsed['runtime']:.0f} s, static {elapsed['static']:.0f} s")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the scores and every miss/false alarm as JSON")
    parser.add_argument("--save", type=Path, help="also write the printed report to FILE")
    parser.add_argument("--timeout", type=float, default=900.0, help="the harness's timeout in seconds")
    parser.add_argument("--corpus", action="append", choices=CORPORA,
                        help="run only this corpus (repeatable; default: all three)")
    parser.add_argument("--limit", type=int, help="only the first N cases of each corpus")
    parser.add_argument("--no-scripts", action="store_true",
                        help="analyze the transformers models without their scripts (a config loaded from disk)")
    parser.add_argument("--dump-predictions", type=Path, help="also write the static pass's events to FILE")
    parser.add_argument("--predictions", type=Path,
                        help="score the events of FILE (--dump-predictions) instead of running the static pass")
    parser.add_argument("--reuse-runtime", action="store_true",
                        help="score against the runtime facts of the previous run (static side only)")
    args = parser.parse_args(argv)
    corpora = tuple(c for c in CORPORA if c in (args.corpus or CORPORA))
    os.environ.setdefault("VTLINT_CACHE_DIR", str(SCRATCH / "cache"))
    saved = SCRATCH / "runtime-facts.json"
    started = time.perf_counter()
    prepare(SCRATCH)  # the corpus the static side reads (kept between runs)
    if args.reuse_runtime and saved.exists():
        facts = RuntimeFacts.load(saved)
        cases = [json.loads(line) for line in (SCRATCH / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    else:
        facts, cases = observe(SCRATCH, args.timeout, corpora, args.limit)
        facts.save(saved)
    elapsed = {"runtime": time.perf_counter() - started}
    for note in facts.notifications:
        print(f"runtime: {note.message.splitlines()[0]}", file=sys.stderr)
    entries = entries_of(cases, facts)
    if not entries:
        print("the harness recorded no case: nothing to score (see the runtime notes above)", file=sys.stderr)
        return 1
    started = time.perf_counter()
    if args.predictions:
        prediction = load_prediction(args.predictions)
    else:
        prediction = predict(SCRATCH, entries, corpora, args.limit, scripts=not args.no_scripts)
    if args.dump_predictions:
        save_prediction(prediction, args.dump_predictions)
    elapsed["static"] = time.perf_counter() - started
    compiled = entry_compiled(facts)
    report = score(prediction.events, facts.events, set(entries), compiled)
    by_corpus = {corpus: score(prediction.events, facts.events, {e for e in entries if e.startswith(f"{corpus}/")},
                               compiled)
                 for corpus in corpora}
    if "transformers" in corpora:  # the transformers corpus again, per family of architecture
        for family in dict.fromkeys(arch.family for arch in ARCHS):
            mine = {arch.entry for arch in ARCHS if arch.family == family} & set(entries)
            by_corpus[f"tf:{family}"] = score(prediction.events, facts.events, mine, compiled)
    text = render(report, cases, prediction.texts, elapsed, facts.torch_version, by_corpus)
    print(text)
    if args.save:
        args.save.write_text(text + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps({
            "torch_version": facts.torch_version,
            "cases": cases,
            "kinds": {k: vars(s) for k, s in report.kinds.items()},
            "corpora": {name: {"kinds": {k: vars(s) for k, s in sub.kinds.items()},
                               "graphs_exact": sum(1 for _, p, o in sub.graphs if p == o), "graphs": len(sub.graphs)}
                        for name, sub in by_corpus.items()},
            "crashed": list(CRASHED),
            "constructs": [{"kind": k, "construct": c, **vars(s)} for (k, c), s in report.constructs.items()],
            "graphs": report.graphs,
            "misses": [{"kind": k, "construct": c, **e.to_dict()} for k, c, e in report.misses],
            "false_alarms": [{"kind": k, "construct": c, **e.to_dict()} for k, c, e in report.false_alarms],
        }, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
