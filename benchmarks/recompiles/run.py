"""Recompiles: vtlint's static recompile predictions (VTL111/VTL112, i.e. the
predicted trace's RECOMPILE events) against what torch really recompiled.

The corpus is `programs/`: small programs built from the patterns users hit (LR
schedules, temperatures, sampling parameters, step counters, flags, mode
strings, sequence lengths, per-batch kwargs, module attributes, None vs tensor,
enum members, resume frames after `.item()`, dynamic=True/False, mark_dynamic),
single files (`NAME.py`) and model.py + train.py folders (`NAME/`). `harness.py`
runs them all in one process under TORCH_TRACE (through `vtlint.runtime`'s
harness runner and parser); the static pass analyzes the same tree as a user
would (`vtlint check programs/`: entries discovered, none named).

A prediction matches an observed recompile when their Sources are equal
(normalised as `vtlint.runtime.events.normalize_source` does) and the observed
location (the guard's read site) is the prediction's primary location (the
changing site) or one of its related locations. Per program the run also
records the ground truth: how many times each frame was compiled and which
guard failed each time.

    python benchmarks/recompiles/run.py [--only NAME,...] [--backend aot_eager|eager|inductor] [--save FILE] [--json FILE]
                                        [--reuse-runtime]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SCRATCH = HERE.parent / ".scratch" / "recompiles"
ROOT = SCRATCH / "programs"
sys.path.insert(0, str(HERE.parent / "accuracy"))

from exercised import entry_compiled  # noqa: E402  (benchmarks/accuracy/exercised.py)
from per_program import CRASHED, analyze_each, load_prediction, save_prediction  # noqa: E402  (benchmarks/accuracy/per_program.py)
import scoring  # noqa: E402  (benchmarks/accuracy/scoring.py: how the accuracy benchmark counts)

from vtlint.analyzer import Prediction, analyze  # noqa: E402
from vtlint.analyzer.files import discover  # noqa: E402
from vtlint.config import Config  # noqa: E402
from vtlint.runtime.events import ProjectFiles, _Converter, normalize_source, user_spelling_to_source  # noqa: E402
from vtlint.runtime.harness import run_harness  # noqa: E402
from vtlint.runtime.step import RuntimeFacts, facts_from_trace  # noqa: E402
from vtlint.runtime.structured_trace import Compile, TraceFacts, parse_trace_dir  # noqa: E402
from vtlint.trace import Action, Event  # noqa: E402

# program -> pattern. A pattern is what the user did, not what torch does about it.
PATTERNS: dict[str, str] = {
    "lr_arg_arith": "LR schedule (float argument)",
    "lr_add_alpha": "LR schedule (float argument)",
    "gpt_lr_schedule": "LR schedule (float argument)",
    "lr_item_then_update": "LR schedule (float argument)",
    "lr_after_item": "loss history appended inside the compiled step",
    "lr_param_groups": "LR schedule (optimizer param_groups)",
    "temperature_arg": "temperature (float argument)",
    "temperature_module_attr": "temperature (module attribute)",
    "top_k_int": "sampling parameter (int argument)",
    "top_p_float": "sampling parameter (float argument)",
    "top_k_optional": "None vs value argument",
    "none_vs_tensor_mask": "None vs value argument",
    "sampler_config": "sampling parameters (dataclass argument)",
    "step_counter_forward": "step counter on a module",
    "counter_submodule": "step counter on a module",
    "step_arg_warmup": "step counter (int argument)",
    "dict_state_step": "step counter (dict argument)",
    "flag_bool": "flag that flips (bool)",
    "grad_accum_sync": "flag that flips (bool)",
    "train_eval_toggle": "flag that flips (module.training)",
    "mode_string": "mode string",
    "enum_phase": "enum member",
    "seq_len_int": "sequence length (int argument)",
    "curriculum_seq_len": "sequence length (int argument)",
    "varying_seq_shape": "tensor shape changes",
    "last_batch_smaller": "tensor shape changes",
    "per_batch_kwargs": "per-batch kwargs",
    "noise_level_attr": "module attribute set outside",
    "dropout_schedule": "module attribute set outside",
    "global_config": "global config changed",
    "feature_flags": "global config changed",
    "resume_after_item": "resume frame after .item()",
    "loss_scaler_resume": "resume frame after .item()",
    "epsilon_greedy": "exploration rate (float argument)",
    "list_of_tensors": "list length changes",
    "ema_model_swap": "another module object",
    "dynamic_true": "dynamic=True",
    "dynamic_false": "dynamic=False",
    "mark_dynamic_batch": "mark_dynamic",
    "activation_choice": "another function object",
    "closure_scale": "closure over a changing value",
    "epoch_attr_outside": "module int attribute set outside",
    "freeze_backbone": "requires_grad flips",
    "eval_half_precision": "dtype changes",
    "pool_kernel_tuple": "tuple argument",
}


# --- the two sides ---------------------------------------------------------------


def prepare() -> None:
    shutil.rmtree(ROOT, ignore_errors=True)
    shutil.copytree(HERE / "programs", ROOT, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (ROOT / "pyproject.toml").write_text("[tool.vtlint]\n", encoding="utf-8")


def observe(only: str, backend: str, timeout: float) -> tuple[RuntimeFacts, TraceFacts, list[dict[str, Any]]]:
    """Run the harness under TORCH_TRACE; keep the trace (SCRATCH/trace) for inspection."""
    trace_dir = SCRATCH / "trace"
    shutil.rmtree(trace_dir, ignore_errors=True)
    trace_dir.mkdir(parents=True)
    results = SCRATCH / "programs.jsonl"
    results.unlink(missing_ok=True)
    run = run_harness([sys.executable, str(HERE / "harness.py"), str(ROOT), str(results), only, backend],
                      cwd=ROOT,
                      trace_dir=trace_dir, output_file=SCRATCH / "harness.out", timeout=timeout)
    facts = facts_from_trace(trace_dir, ROOT, run)
    raw = parse_trace_dir(trace_dir, check_version=False)
    cases = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()] if results.exists() else []
    return facts, raw, cases


def predict() -> Prediction:
    """As a user would check them: the single files as one project, each folder as its own
    (`cd NAME && vtlint check .`); entries are discovered, none is named."""
    config = Config(root=ROOT)
    singles = sorted(ROOT.glob("*.py"))
    try:
        prediction = analyze(discover(singles, config).files, config, jobs=2, use_cache=True)
    except Exception as exc:  # noqa: BLE001 - an analyzer crash is a result to report
        CRASHED.append(f"the single-file programs: {type(exc).__name__}: {str(exc)[:120]}")
        prediction = Prediction()
    each = analyze_each(sorted(p for p in ROOT.iterdir() if p.is_dir()), ROOT)
    prediction.events += each.events
    prediction.texts.update(each.texts)
    return prediction


def program_of(path: str) -> str:
    """`gpt_lr_schedule/train.py` -> gpt_lr_schedule; `flag_bool.py` -> flag_bool."""
    head, sep, _ = path.partition("/")
    return head if sep else Path(path).stem


# --- ground truth per program ------------------------------------------------------


@dataclass
class Recompile:
    frame: str
    compile_id: str
    failing_guard: str  # as the recompile reason prints it
    source: str | None
    line: int | None
    others: int  # further cache entries whose guards also failed
    limit_hit: bool = False


@dataclass
class Truth:
    compiles: dict[str, int] = field(default_factory=dict)  # frame -> compiles
    recompiles: list[Recompile] = field(default_factory=list)
    limit_hit: bool = False


def ground_truth(raw: TraceFacts) -> dict[str, Truth]:
    files = ProjectFiles(ROOT, raw.files())
    conv = _Converter(raw, files)
    truth: dict[str, Truth] = defaultdict(Truth)
    for compile in raw.compiles:
        display = files.display(compile.co_filename)
        if display is None or not compile.co_name:
            continue
        program = truth[program_of(display)]
        program.compiles[compile.co_name] = program.compiles.get(compile.co_name, 0) + 1
        program.limit_hit |= compile.recompile_limit_hit
        if compile.recompile_reasons:
            program.recompiles.append(_recompile(conv, compile))
    return dict(truth)


def _recompile(conv: _Converter, compile: Compile) -> Recompile:
    reason = compile.recompile_reasons[0]  # the most recent cache entry's: the one that caused this compile
    failed = conv.by_id.get((compile.log, compile.generation, reason.failed_compile_id))
    source, _, _ = conv.match_reason(reason, failed)
    source = source or _spelled_source(reason.text)
    return Recompile(compile.co_name or "", compile.compile_id, reason.text, source, reason.user_line,
                     len(compile.recompile_reasons) - 1, compile.recompile_limit_hit)


def _spelled_source(text: str) -> str | None:
    """For the ground-truth log only: the Source of a failing guard vtlint's matcher left
    unnamed (`lr == 0.009` installed by remove_tensorify_specialized_graphargs with no
    user line, `seq_len != 64`, a guard on a built-in module's attribute)."""
    left = re.split(r" (?:==|!=|is|is not) ", text, maxsplit=1)
    if len(left) < 2 or left[0].startswith(("___", "tensor ", "GLOBAL_STATE")):
        return None
    source = normalize_source(user_spelling_to_source(left[0].strip()))
    return source if re.match(r"^[LG]\[", source) else None


# --- scoring -------------------------------------------------------------------------


def _where(location: Any) -> tuple[str, int]:
    return (location.path, location.line)


def _source(event: Event) -> str | None:
    """The Source a recompile is about; for one on global state (grad mode, which has no Source),
    its failing guard (`GLOBAL_STATE changed: grad_mode`)."""
    if event.source:
        return normalize_source(event.source)
    guard = event.guard if event.guard_kind == "GLOBAL_STATE" else event.detail.get("failing_guard")
    return guard if isinstance(guard, str) and guard.startswith("GLOBAL_STATE") else None


def matches(predicted: Event, observed: Event) -> bool:
    if _source(predicted) is None or _source(predicted) != _source(observed):
        return False
    places = {_where(predicted.location), *(_where(r.location) for r in predicted.related)}
    return _where(observed.location) in places


@dataclass
class Score:
    tp: int = 0  # observed recompiles matched by a prediction
    fp: int = 0  # predictions (exercised) that match no observed recompile
    fn: int = 0  # observed recompiles no prediction matched
    matched_predictions: int = 0

    @property
    def precision(self) -> float | None:
        total = self.matched_predictions + self.fp
        return self.matched_predictions / total if total else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None


@dataclass
class Result:
    patterns: dict[str, Score] = field(default_factory=lambda: defaultdict(Score))
    misses: list[tuple[str, Event]] = field(default_factory=list)
    false_alarms: list[tuple[str, Event]] = field(default_factory=list)
    unattributed: list[Event] = field(default_factory=list)  # observed, with no user Source (global state)
    unexercised: int = 0
    # per matched recompile: (program, Source, predicted behaviour, recompiles measured on that Source)
    behaviour: list[tuple[str, str, str, int]] = field(default_factory=list)


def _dedupe(events: list[Event]) -> list[Event]:
    seen, out = set(), []
    for e in events:
        key = (_source(e), _where(e.location), tuple(sorted(_where(r.location) for r in e.related)))
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


def predicted_behaviour(event: Event) -> str:
    """What the prediction says the change costs: `once` (then automatic dynamic),
    `per value` (every distinct value), `every call` (a counter), or `?`."""
    if event.detail.get("every_call"):
        return "every call"
    once = event.detail.get("once")
    return "?" if once is None else ("once" if once else "per value")


def behaviour_agrees(predicted: str, measured: int) -> bool | None:
    """Measured 2+ recompiles on a Source refutes `once`; measured 1 refutes `every call`
    only when... never (a counter called twice recompiles once): so 1 confirms `once`
    and leaves `per value`/`every call` undecided (the value may have changed once)."""
    if predicted == "?" or measured == 0:
        return None
    if measured >= 2:
        return predicted != "once"
    return True if predicted == "once" else None


def score(predicted: list[Event], facts: RuntimeFacts, programs: set[str],
          truth: dict[str, Truth] | None = None) -> Result:
    result = Result()
    preds = [e for e in predicted if e.action is Action.RECOMPILE and program_of(e.location.path) in programs]
    compiled = entry_compiled(facts)
    result.unexercised = sum(1 for e in preds if not compiled(e))
    preds = _dedupe([e for e in preds if compiled(e)])
    observed = [e for e in facts.events if e.action is Action.RECOMPILE and program_of(e.location.path) in programs]
    result.unattributed = [e for e in observed if not _source(e)]
    observed = [e for e in observed if _source(e)]
    for program in sorted(programs):
        pattern = PATTERNS.get(program, "other")
        cell = result.patterns[pattern]
        mine = [e for e in preds if program_of(e.location.path) == program]
        seen = [e for e in observed if program_of(e.location.path) == program]
        for fact in seen:
            if any(matches(p, fact) for p in mine):
                cell.tp += 1
                pred = next(p for p in mine if matches(p, fact))
                measured = sum(1 for r in (truth or {}).get(program, Truth()).recompiles if r.source == fact.source)
                result.behaviour.append((program, fact.source or "", predicted_behaviour(pred), measured))
            else:
                cell.fn += 1
                result.misses.append((program, fact))
        for pred in mine:
            if any(matches(pred, fact) for fact in seen):
                cell.matched_predictions += 1
            else:
                cell.fp += 1
                result.false_alarms.append((program, pred))
    return result


def score_other_kinds(predicted: list[Event], facts: RuntimeFacts) -> scoring.Report:
    """Baked constants, inlined calls and graph counts of the same programs, counted as the accuracy
    benchmark counts them (issue 14 asks that they keep its targets here too)."""
    entries = {e.entry for e in facts.events if e.action is Action.FRAME}
    return scoring.score(predicted, facts.events, entries, entry_compiled(facts))


# --- output ----------------------------------------------------------------------------


def render_other_kinds(report: scoring.Report, texts: dict[str, str]) -> str:
    out = ["baked constants, inlined calls and graph counts of the same programs (counted as benchmarks/accuracy counts):"]
    for kind in ("baked constant", "inlined call"):
        s = report.kinds[kind]
        out.append(f"  {kind:<16} {s.tp:>4} {s.fp:>4} {s.fn:>4} {_pct(s.precision):>10} {_pct(s.recall):>7}")
    exact = sum(1 for _, predicted, observed in report.graphs if predicted == observed)
    out.append(f"  graph count      {exact}/{len(report.graphs)} entries exact")
    for title, events in (("false alarms", report.false_alarms), ("misses", report.misses)):
        picked = [(k, e) for k, _, e in events if k in ("baked constant", "inlined call")]
        out.append(f"  {title} ({len(picked)}):")
        out += [f"    [{k}] {e.location.path}:{e.location.line} {e.source or e.callee}  | {_text_line(texts, e)}"
                for k, e in picked]
    return "\n".join(out)


def _text_line(texts: dict[str, str], event: Event) -> str:
    lines = texts.get(event.location.path, "").splitlines()
    return lines[event.location.line - 1].strip()[:80] if 0 < event.location.line <= len(lines) else ""


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def _total(scores: list[Score]) -> Score:
    return Score(*(sum(getattr(s, f) for s in scores) for f in ("tp", "fp", "fn", "matched_predictions")))


def render(result: Result, truth: dict[str, Truth], cases: list[dict[str, Any]], texts: dict[str, str],
           elapsed: dict[str, float], torch_version: str | None = None) -> str:
    backend = cases[0].get("backend", "?") if cases else "?"
    out = [f"programs: {len(cases)} ({sum(1 for c in cases if not c['error'])} ran), torch {torch_version}, "
           f"backend {backend}, "
           f"runtime {elapsed['runtime']:.0f} s, static {elapsed['static']:.0f} s", ""]
    out.append(f"{'pattern':<42} {'TP':>4} {'FP':>4} {'FN':>4} {'precision':>10} {'recall':>7}")
    for pattern, s in sorted(result.patterns.items()):
        out.append(f"{pattern:<42} {s.tp:>4} {s.fp:>4} {s.fn:>4} {_pct(s.precision):>10} {_pct(s.recall):>7}")
    total = _total(list(result.patterns.values()))
    out.append(f"{'all':<42} {total.tp:>4} {total.fp:>4} {total.fn:>4} {_pct(total.precision):>10} "
               f"{_pct(total.recall):>7}")
    out.append(f"(TP/FN count observed recompiles by Source and site; FP counts predictions; "
               f"{result.unexercised} predictions in entries the run never compiled are not scored)")
    verdicts = [behaviour_agrees(b, n) for _, _, b, n in result.behaviour]
    out.append(f"behaviour of the matched recompiles (predicted once / per value / every call vs the recompiles "
               f"measured on that Source): {verdicts.count(True)} agree, {verdicts.count(False)} disagree, "
               f"{verdicts.count(None)} undecided")
    for (program, source, said, measured), verdict in zip(result.behaviour, verdicts):
        if verdict is False:
            out.append(f"  disagrees: {program} {source}: predicted {said}, torch recompiled {measured} times on it")
    out.append("")
    out.append("ground truth per program (torch's compiles; each recompile: frame, the guard that failed):")
    for case in cases:
        name = case["name"]
        t = truth.get(name, Truth())
        compiles = ", ".join(f"{frame} x{n}" for frame, n in t.compiles.items()) or "nothing compiled"
        flags = (" [recompile limit hit]" if t.limit_hit else "") + (f" [raised: {case['error']}]" if case["error"]
                                                                      else "")
        out.append(f"  {name} ({PATTERNS.get(name, 'other')}; {case['seconds']} s): {compiles}{flags}")
        for r in t.recompiles:
            more = f" (+{r.others} older entries failed too)" if r.others else ""
            out.append(f"      {r.frame} #{r.compile_id}: `{r.failing_guard}` -> {r.source or '?'}"
                       f" @ line {r.line}{more}")
    for title, rows in (("misses (observed recompile, not predicted)", result.misses),
                        ("false alarms (predicted, the run compiled the entry, no such recompile)",
                         result.false_alarms)):
        out.append("")
        out.append(f"{title}: {len(rows)}")
        for program, event in rows:
            text = _text_line(texts, event)
            related = "; ".join(f"{r.location.path}:{r.location.line}" for r in event.related)
            why = event.detail.get("failing_guard") or event.detail.get("reason") or event.guard or ""
            out.append(f"  [{PATTERNS.get(program, 'other')}] {event.location.path}:{event.location.line} "
                       f"{event.source} — {why}" + (f" (related: {related})" if related else "") + f"  | {text}")
    if CRASHED:
        out.append("")
        out.append("the static pass crashed on (their recompiles count as misses):")
        out += [f"  {line}" for line in CRASHED]
    if result.unattributed:
        out.append("")
        out.append(f"observed recompiles with no user Source (not scored): {len(result.unattributed)}")
        for event in result.unattributed:
            out.append(f"  {event.location.path}:{event.location.line} {event.detail.get('failing_guard')}")
    out.append("")
    out.append(f"SUMMARY: recompiles precision {_pct(total.precision)}, recall {_pct(total.recall)} "
               f"({total.tp} of {total.tp + total.fn} observed recompiles predicted, {total.fp} false alarms) "
               f"over {len(cases)} programs")
    return "\n".join(out)


def to_json(result: Result, truth: dict[str, Truth], cases: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "patterns": {p: {**vars(s), "precision": s.precision, "recall": s.recall} for p, s in result.patterns.items()},
        "programs": [{**c, "pattern": PATTERNS.get(c["name"], "other"),
                      "compiles": truth.get(c["name"], Truth()).compiles,
                      "limit_hit": truth.get(c["name"], Truth()).limit_hit,
                      "recompiles": [vars(r) for r in truth.get(c["name"], Truth()).recompiles]} for c in cases],
        "behaviour": [{"program": p, "source": src, "predicted": b, "measured_recompiles": n,
                       "agrees": behaviour_agrees(b, n)} for p, src, b, n in result.behaviour],
        "misses": [{"program": p, **e.to_dict()} for p, e in result.misses],
        "false_alarms": [{"program": p, **e.to_dict()} for p, e in result.false_alarms],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="comma-separated program names (default: all)")
    parser.add_argument("--save", type=Path, help="also write the printed report to FILE")
    parser.add_argument("--json", type=Path, help="also write scores, ground truth, misses and false alarms as JSON")
    parser.add_argument("--backend", choices=("aot_eager", "eager", "inductor"), default="aot_eager",
                        help="the backend torch.compile is forced to (default aot_eager: Inductor's float "
                             "specialization without its C++ builds; eager keeps those floats dynamic; "
                             "inductor takes minutes per program on a CPU)")
    parser.add_argument("--timeout", type=float, default=1200.0, help="the harness's timeout in seconds")
    parser.add_argument("--dump-predictions", type=Path, help="also write the static pass's events to FILE")
    parser.add_argument("--predictions", type=Path,
                        help="score the events of FILE (--dump-predictions) instead of running the static pass")
    parser.add_argument("--reuse-runtime", action="store_true", help="score against the previous run's trace")
    args = parser.parse_args(argv)
    os.environ.setdefault("VTLINT_CACHE_DIR", str(SCRATCH / "cache"))
    started = time.perf_counter()
    if args.reuse_runtime and (SCRATCH / "trace").is_dir():
        facts = facts_from_trace(SCRATCH / "trace", ROOT)
        raw = parse_trace_dir(SCRATCH / "trace", check_version=False)
        cases = [json.loads(line) for line in (SCRATCH / "programs.jsonl").read_text(encoding="utf-8").splitlines()]
    else:
        prepare()
        facts, raw, cases = observe(args.only, args.backend, args.timeout)
    elapsed = {"runtime": time.perf_counter() - started}
    for note in facts.notifications:
        print(f"runtime: {note.message.splitlines()[0]}", file=sys.stderr)
    if not cases:
        print("the harness recorded no program (see the runtime notes above)", file=sys.stderr)
        return 1
    started = time.perf_counter()
    prediction = load_prediction(args.predictions) if args.predictions else predict()
    if args.dump_predictions:
        save_prediction(prediction, args.dump_predictions)
    elapsed["static"] = time.perf_counter() - started
    truth = ground_truth(raw)
    result = score(prediction.events, facts, {c["name"] for c in cases}, truth)
    report, _, summary = render(result, truth, cases, prediction.texts, elapsed, facts.torch_version).rpartition("\n")
    others = render_other_kinds(score_other_kinds(prediction.events, facts), prediction.texts)
    text = f"{report}\n{others}\n\n{summary}"  # the SUMMARY line stays last
    print(text)
    if args.save:
        args.save.write_text(text + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(to_json(result, truth, cases), indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
