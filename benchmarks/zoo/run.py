"""The zoo: vtlint's static predictions on real models driven by scripts in users' styles, scored
against what torch really did, held-out part first.

Each script's folder is analyzed as `vtlint check .` run there would (no `--entry`, no flag);
the runtime side is the cached truth of `collect.py` (library frames kept as entries). Both are
joined with benchmarks/accuracy's `score` under the zoo's rules (a recompile without a Source
matched by its guard text less object ids, dict key-order guards neutral), the truth placed as vtlint joins it (a
project entry's events inside a package at the innermost project line: report/attribution.py). Only the development
part is ever listed case by case (`--debug-dev`); the held-out part is scored as a whole.

    python benchmarks/zoo/run.py [--reuse-runtime] [--limit N] [--only FAMILY,...] [--debug-dev]
                                 [--save FILE] [--json FILE] [--jobs 2] [--timeout 300] [--static-limit 600]
"""

from __future__ import annotations

import argparse
import functools
import json
import linecache
import os
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "accuracy")]

from collect import SCRATCH, archive, cache_dir, collect, facts, prepare, scripts_dir, select  # noqa: E402
from exercised import entry_compiled  # noqa: E402
from forked import run_forked  # noqa: E402
from scoring import KINDS, Report, Score, score  # noqa: E402
from scripts import TRIO, Script, load_manifest  # noqa: E402
from split import DEVELOPMENT, HELD_OUT, part  # noqa: E402

from vtlint.analyzer import analyze  # noqa: E402
from vtlint.analyzer.files import discover  # noqa: E402
from vtlint.config import Config  # noqa: E402
from vtlint.report.attribution import as_the_walk_places  # noqa: E402
from vtlint.report.shareable import shorten  # noqa: E402
from vtlint.runtime.step import RuntimeFacts  # noqa: E402
from vtlint.trace import Action, Event  # noqa: E402

SHORT = {"graph break": "graph breaks", "baked constant": "baked constants", "inlined call": "inlined calls",
         "recompile": "recompiles"}


# --- the static side -----------------------------------------------------------------------


def predict(folder: Path) -> list[dict[str, Any]]:
    """`vtlint check .` in `folder`: its events (as dicts, to cross processes)."""
    config = Config(root=folder)
    return [e.to_dict() for e in analyze(discover([folder], config).files, config, jobs=1, use_cache=True).events]


def _analyzed(cache: Path, script: Script) -> list[dict[str, Any]]:
    facts(cache, script)  # the truth read from its trace now, in the workers, and kept for the parent
    return predict(scripts_dir() / script.folder)


def predict_all(scripts: list[Script], cache: Path, jobs: int,
                limit_s: float) -> dict[str, tuple[list[Event], str | None]]:
    """Each script's events, or why there are none (the static pass crashed or ran over `limit_s`):
    then its truth counts as missed."""
    started, count = time.perf_counter(), iter(range(1, len(scripts) + 1))

    def told(name: str, result: tuple[bool, Any]) -> None:
        print(f"[static {next(count)}/{len(scripts)} {time.perf_counter() - started:.0f} s] {name}"
              + ("" if result[0] else f": {result[1]}"), file=sys.stderr, flush=True)

    results = run_forked([(s.folder, functools.partial(_analyzed, cache, s)) for s in scripts], jobs, limit_s, told)
    return {name: ([Event.from_dict(e) for e in value], None) if ok else ([], value)
            for name, (ok, value) in results.items()}


# --- scores --------------------------------------------------------------------------------


@dataclass
class Tally:
    """Scores summed over scripts."""

    kinds: dict[str, Score] = field(default_factory=lambda: {k: Score() for k in KINDS})
    graphs_exact: int = 0
    graphs: int = 0
    scripts: int = 0
    models: set[str] = field(default_factory=set)
    constructs: dict[tuple[str, str], Score] = field(default_factory=lambda: defaultdict(Score))

    def add(self, script: Script, report: Report) -> None:
        for key, s in report.constructs.items():
            cell = self.constructs[key]
            cell.tp, cell.fp, cell.fn = cell.tp + s.tp, cell.fp + s.fp, cell.fn + s.fn
        for kind, s in report.kinds.items():
            total = self.kinds[kind]
            total.tp, total.fp, total.fn = total.tp + s.tp, total.fp + s.fp, total.fn + s.fn
            total.unexercised += s.unexercised
        self.graphs += len(report.graphs)
        self.graphs_exact += sum(1 for _, p, o in report.graphs if p == o)
        self.scripts += 1
        self.models.add(script.model)


def score_script(events: list[Event], truth: RuntimeFacts) -> Report:
    """The truth placed as vtlint joins it: what a project entry (a compiled training step) runs inside a
    package at the innermost project line of its inline chain, the package's own calls dropped
    (report/attribution.py, the same rule for both traces)."""
    entries = set(truth.coverage) | {e.entry for e in events}
    return score(events, as_the_walk_places(truth.events), entries, entry_compiled(truth), zoo_rules=True)


def group(model: dict[str, Any]) -> str:
    """A family group: the transformers task (its Auto class), the diffusers subpackage."""
    if model["library"] == "diffusers":
        return "diffusers." + model["module"].split(".")[2]
    return model["auto_class"].removeprefix("AutoModel").removeprefix("For") or "base model"


def library_findings(events: list[Event]) -> frozenset[tuple[object, ...]]:
    """The graph breaks, baked constants and inlined calls at lines of installed libraries.
    Recompiles are left out: the invariance styles make the same call, one compile is compared."""
    kinds = [select for name, (select, _) in KINDS.items() if name != "recompile"]
    return frozenset(e.key for e in events if os.path.isabs(e.location.path) and any(k(e) for k in kinds))


def invariance(sets: dict[str, list[frozenset[tuple[object, ...]]]]) -> tuple[int, int, int]:
    """(models whose invariance scripts give the same library findings, models with at least two of
    them, of those how many have none at all)."""
    compared = {m: found for m, found in sets.items() if len(found) >= 2}
    same = sum(1 for found in compared.values() if len(set(found)) == 1)
    return same, len(compared), sum(1 for found in compared.values() if not any(found))


# --- output --------------------------------------------------------------------------------


def _pr(s: Score) -> str:
    p = "  -" if s.precision is None else f"{s.precision:.2f}"
    r = "  -" if s.recall is None else f"{s.recall:.2f}"
    return f"P {p} R {r}"


def kind_table(title: str, tally: Tally) -> list[str]:
    out = [f"{title}: {len(tally.models)} models, {tally.scripts} scripts",
           f"  {'kind':<16} {'TP':>6} {'FP':>6} {'FN':>6} {'precision':>10} {'recall':>7}"]
    for kind, s in tally.kinds.items():
        p = "-" if s.precision is None else f"{s.precision:.2f}"
        r = "-" if s.recall is None else f"{s.recall:.2f}"
        out.append(f"  {SHORT[kind]:<16} {s.tp:>6} {s.fp:>6} {s.fn:>6} {p:>10} {r:>7}")
    out.append(f"  {'graph counts':<16} {tally.graphs_exact}/{tally.graphs} compiled entries exact")
    return out


def breakdown(title: str, tallies: dict[str, Tally]) -> list[str]:
    out = [title, f"  {'':<28} {'scripts':>7}  " + "  ".join(f"{SHORT[k]:<17}" for k in KINDS) + "  graphs exact"]
    for name, t in sorted(tallies.items()):
        cells = "  ".join(f"{_pr(s):<17}" for s in t.kinds.values())
        out.append(f"  {name:<28} {t.scripts:>7}  {cells}  {t.graphs_exact}/{t.graphs}")
    return out


CONSTRUCT_KINDS = ("graph break", "recompile")  # the kinds few enough per construct to list


def construct_table(title: str, tally: Tally, rows: int = 12) -> list[str]:
    """A kind's constructs (a break's GB id, a recompile's guard kind) with the most errors: classes
    of behaviour, never cases, so the held-out part may be shown this way."""
    out = [title]
    for kind in CONSTRUCT_KINDS:
        cells = sorted(((c, s) for (k, c), s in tally.constructs.items() if k == kind),
                       key=lambda cs: (-(cs[1].fn + cs[1].fp), cs[0]))
        out.append(f"  {SHORT[kind]}: {'TP':>5} {'FP':>5} {'FN':>5}")
        out += [f"    {c[:60]:<60} {s.tp:>5} {s.fp:>5} {s.fn:>5}" for c, s in cells[:rows]]
        if len(cells) > rows:
            out.append(f"    ({len(cells) - rows} more)")
    return out


def _describe(event: Event) -> str:
    if event.action is Action.GRAPH_BREAK:
        return f"{event.gb_id} {event.gb_type}"
    if event.action is Action.INLINE:
        return f"calls {shorten(event.callee or '')}"
    return f"{event.source} ({event.guard or event.guard_kind})"


def style_differences(styled: dict[str, list[tuple[str, frozenset[tuple[object, ...]]]]]) -> list[str]:
    """Per model whose invariance scripts disagree: what each style found that not every style did."""
    out: list[str] = []
    for model, found in sorted(styled.items()):
        common = frozenset.intersection(*(f for _, f in found))
        if all(f == common for _, f in found):
            continue
        out.append(f"  {model}:")
        for style, f in found:
            extra = sorted(map(str, f - common))
            out += [f"    {style}: {len(extra)} of its own"] + [f"      {e[:200]}" for e in extra[:5]]
    return out


def debug_lines(script: Script, report: Report) -> list[str]:
    out = [f"  {script.folder}:"]
    for title, rows in (("missed", report.misses), ("false alarm", report.false_alarms)):
        for kind, construct, event in sorted(rows, key=lambda r: (r[0], r[2].location.path, r[2].location.line)):
            path = event.location.path
            full = path if path.startswith("/") else str(scripts_dir() / script.folder / path)
            text = linecache.getline(full, event.location.line).strip()[:80]
            out.append(f"    {title:<11} [{kind}] {shorten(path)}:{event.location.line} {_describe(event)}  | {text}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reuse-runtime", action="store_true", help="score the cached truth only (run nothing)")
    parser.add_argument("--limit", type=int, help="only the first N models (manifest order)")
    parser.add_argument("--only", help="only these development families (comma-separated)")
    parser.add_argument("--debug-dev", action="store_true", help="list the development part's misses and false alarms")
    parser.add_argument("--save", type=Path, help="also write the printed report to FILE")
    parser.add_argument("--json", type=Path, help="also write the totals as JSON")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=300.0, help="one script's run's time limit (collection)")
    parser.add_argument("--static-limit", type=float, default=600.0,
                        help="one script's static pass's time limit (over it, its truth counts as missed)")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    if only and (held := sorted(f for f in only if part(f) == HELD_OUT)):
        parser.error(f"held-out families are scored only as a whole: {', '.join(held)}")
    os.environ.setdefault("VTLINT_CACHE_DIR", str(SCRATCH / "cache"))
    manifest = load_manifest()
    models = {m["name"]: m for m in manifest["models"]}
    scripts = select(prepare(manifest), args.limit, only)
    started = time.perf_counter()
    if not args.reuse_runtime:
        collect(scripts, manifest["versions"], args.jobs, args.timeout)
    elapsed = {"runtime": time.perf_counter() - started}
    cache = cache_dir(manifest["versions"])
    collected = [s for s in scripts if archive(cache, s).exists()]
    missing = len(scripts) - len(collected)
    started = time.perf_counter()
    predicted = predict_all(collected, cache, args.jobs, args.static_limit)
    elapsed["static"] = time.perf_counter() - started

    parts = {HELD_OUT: Tally(), DEVELOPMENT: Tally()}
    by: dict[str, dict[str, dict[str, Tally]]] = {p: defaultdict(lambda: defaultdict(Tally)) for p in parts}
    debug: list[str] = []
    failed: list[tuple[str, str]] = []
    static_sets: dict[str, list[frozenset[tuple[object, ...]]]] = defaultdict(list)
    truth_sets: dict[str, list[frozenset[tuple[object, ...]]]] = defaultdict(list)
    styled: dict[str, list[tuple[str, frozenset[tuple[object, ...]]]]] = defaultdict(list)
    for script in collected:  # one script's facts in memory at a time
        events, _ = predicted[script.folder]
        if script.style in TRIO:
            static_sets[script.model].append(library_findings(events))
            if args.debug_dev and part(script.family) == DEVELOPMENT:
                styled[script.model].append((script.style, static_sets[script.model][-1]))
        truth = facts(cache, script)
        if truth.harness.get("exit_code") != 0:
            failed.append((script.folder, "timed out" if truth.harness.get("timed_out")
                           else f"exit {truth.harness.get('exit_code')}"))
            continue
        if script.style in TRIO:
            truth_sets[script.model].append(library_findings(truth.events))
        report = score_script(events, truth)
        where = part(script.family)
        parts[where].add(script, report)
        for name, key in (("library", script.library), ("style", script.style),
                          ("family group", group(models[script.model]))):
            by[where][name][key].add(script, report)
        if args.debug_dev and where == DEVELOPMENT:
            debug += debug_lines(script, report)
    ran = len(collected) - len(failed)
    same, compared, empty = invariance(static_sets)
    truth_same, truth_compared, _ = invariance(truth_sets)
    crashed = sorted((folder, err) for folder, (_, err) in predicted.items() if err)

    v = manifest["versions"]
    out = [f"zoo: {len({s.model for s in scripts})} models, {len(scripts)} scripts ({ran} ran, "
           f"{len(failed)} failed, {missing} not collected yet); torch {v['torch']}, transformers "
           f"{v['transformers']}, diffusers {v['diffusers']}", ""]
    out += kind_table("HELD-OUT (scored as a whole)", parts[HELD_OUT]) + [""]
    out += kind_table("DEVELOPMENT", parts[DEVELOPMENT]) + [""]
    for where in parts:
        for name in ("library", "style", "family group"):
            out += breakdown(f"{where} by {name}", by[where][name]) + [""]
        out += construct_table(f"{where} by construct", parts[where]) + [""]
    out.append(f"style invariance: {same}/{compared} models give the same library-frame findings in the styles "
               f"{', '.join(TRIO)} ({empty} of them have none at all); torch's own, for comparison: "
               f"{truth_same}/{truth_compared}")
    if crashed:
        out += ["", f"the static pass crashed or ran over its limit on {len(crashed)} scripts (their truth counts "
                    "as missed):"]
        out += [f"  {folder}: {err}" for folder, err in crashed]
    if failed:
        out += ["", f"runs that failed (excluded): {len(failed)}"] + [f"  {f}: {why}" for f, why in failed]
    if debug:
        out += ["", "development misses and false alarms:", *debug]
    if styled:
        out += ["", "development models whose styles differ:", *style_differences(styled)]
    out += ["", f"runtime {elapsed['runtime']:.0f} s (collection), static {elapsed['static']:.0f} s"]
    text = "\n".join(out)
    print(text)
    if args.save:
        args.save.write_text(text + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps({
            "versions": v, "models": len({s.model for s in scripts}), "scripts": len(scripts), "ran": ran,
            "failed": [folder for folder, _ in failed], "not_collected": missing,
            "parts": {p: {"models": len(t.models), "scripts": t.scripts, "graphs_exact": t.graphs_exact,
                          "graphs": t.graphs, "kinds": {k: vars(s) for k, s in t.kinds.items()}}
                      for p, t in parts.items()},
            "style_invariance": {"same": same, "compared": compared, "without_findings": empty,
                                 "truth_same": truth_same, "truth_compared": truth_compared},
            "crashed": [folder for folder, _ in crashed],
        }, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
