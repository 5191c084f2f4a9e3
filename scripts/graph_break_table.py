"""Write docs/graph-breaks.md: every graph-break id of the installed torch's registry, whether a
static pass can see it coming (vtlint/rules/trace_rules/visibility.py), the rule that reports it
and the golden program that proves the prediction against torch (tests/golden_breaks/programs:
a `# expect: GBnnnn` mark the static pass must predict, which tests/golden_breaks checks).

    python scripts/graph_break_table.py          # rewrite docs/graph-breaks.md
    python scripts/graph_break_table.py --check  # exit 1 when it is stale (tests/breaks does this too)
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.golden_breaks.golden import PROGRAMS_DIR, expectations  # noqa: E402
from vtlint.rules.catalog.graph_break import GraphBreakRule, OtherGraphBreak  # noqa: E402
from vtlint.rules.registry import all_rules  # noqa: E402
from vtlint.rules.trace_rules import visibility  # noqa: E402
from vtlint.rules.trace_rules.snapshot import current  # noqa: E402

DOC = ROOT / "docs" / "graph-breaks.md"
CITED = 3  # goldens named per id
LOOP_BREAK = "graph break in loop"
NOT_RAISED = "not raised by this torch"
ORDER = (visibility.STATIC, visibility.RUNTIME, visibility.INSIDE, visibility.UNCLASSIFIED, NOT_RAISED)
_JOINED = re.compile(r"\"\s*\n\s*f?\"")  # "...text "\n  f"more..." : implicit concatenation


def raised_types() -> str | None:
    """The Python source of the installed torch's Dynamo (found without importing torch), implicit string
    concatenations joined: a Gb_type none of it spells is one the registry keeps for older releases."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return None
    dynamo = Path(next(iter(spec.submodule_search_locations))) / "_dynamo"
    return _JOINED.sub("", "\n".join(p.read_text(encoding="utf-8") for p in sorted(dynamo.rglob("*.py"))))


def is_raised(gb_type: str, source: str | None) -> bool:
    """Whether the source spells the Gb_type as a string: its whole text up to the first f-string field, at
    the start of a string literal (a prefix would take "Attempted to inline function marked as skipped
    (SkipFunctionVariable)", which torch 2.13 no longer raises, for the Gb_type it does raise; and code that
    calls `functools.wraps` is no Gb_type "functools.wraps")."""
    literal = gb_type.split("{")[0]
    if source is None or not literal:
        return True
    return any(re.search(r"f?[\"']" + re.escape(text), source) for text in (literal, literal.replace('"', '\\"')))


def goldens(registry: dict[str, dict[str, Any]]) -> dict[str, dict[str, bool]]:
    """GB id -> {golden program: predicted (False: marked `missed`)}. A `loop` mark is also torch's
    "graph break in loop" (the frame skipped for a break inside a loop), predicted unless `loop-missed`."""
    in_loop = next((gb_id for gb_id, entry in registry.items() if entry["gb_type"] == LOOP_BREAK), None)
    found: dict[str, dict[str, bool]] = {}
    for path in sorted(PROGRAMS_DIR.glob("*.py")):
        for mark in expectations(path.read_text(encoding="utf-8")):
            loop = {in_loop: mark.in_loop} if in_loop and (mark.in_loop or mark.loop_missed) else {}
            for gb_id, predicted in {**dict.fromkeys(mark.gb_ids, not mark.missed), **loop}.items():
                seen = found.setdefault(gb_id, {})
                seen[path.stem] = seen.get(path.stem, False) or predicted
    return found


def rule_codes() -> dict[str, str]:
    """GB id -> the VTL2xx rule whose family claims it (VTL299 for the rest)."""
    codes: dict[str, str] = {}
    for code, rule in all_rules().items():
        if issubclass(rule, GraphBreakRule) and rule is not OtherGraphBreak:
            for gb_id in rule.gb_ids:
                codes.setdefault(gb_id, code)
    return codes


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def render(snapshot: dict[str, Any]) -> str:
    registry: dict[str, dict[str, Any]] = snapshot["registry"]
    proven, codes, source = goldens(registry), rule_codes(), raised_types()
    rows: dict[str, list[str]] = {cls: [] for cls in ORDER}
    total: Counter[str] = Counter()
    predicted: Counter[str] = Counter()
    for gb_id in sorted(registry):
        cls, reason = visibility.classify(gb_id)
        if not is_raised(registry[gb_id]["gb_type"], source):
            cls, reason = NOT_RAISED, f"{cls}; no code of torch {snapshot['torch_version']} raises it"
        programs = proven.get(gb_id, {})
        hit = any(programs.values())
        total[cls] += 1
        predicted[cls] += hit
        rule = codes.get(gb_id, OtherGraphBreak.code) if hit else "—"
        cited = ", ".join(f"[{name}](../tests/golden_breaks/programs/{name}.py)" + ("" if ok else " (missed)")
                          for name, ok in sorted(programs.items(), key=lambda p: (not p[1], p[0]))[:CITED]) or "—"
        if len(programs) > CITED:
            cited += f" and {len(programs) - CITED} more"
        rows[cls].append(f"| {gb_id} | {_cell(registry[gb_id]['gb_type'])} | {_cell(reason)} | {rule} | {cited} |")
    lines = [
        f"# Graph-break coverage: torch {snapshot['torch_version']}",
        "",
        "Generated by `python scripts/graph_break_table.py` from the graph-break registry of the installed torch",
        f"(`torch/_dynamo/graph_break_registry.json`, {len(registry)} ids); do not edit by hand. `tests/breaks` fails",
        "when it is stale.",
        "",
        "Each id is **statically visible** (its trigger is a construct of the user's source, and whether it breaks",
        "follows from what the static walk knows there: the callee's qualified name and trace_rules, the kind of",
        "each value, Dynamo's config, the frame's bytecode), **needs runtime values** (a tensor's dtype or autograd",
        "history, the type of an object built out of sight, an exception a value raises, symbolic sizes) or is",
        "**only inside torch** (higher-order ops' subgraph checks, compiled autograd, export, distributed, Triton,",
        "TorchScript, Dynamo's own invariants). An id is *predicted* when a golden program marks it with",
        "`# expect: GBnnnn` and the static pass predicts it there (tests/golden_breaks checks both against torch);",
        "`(missed)` names a golden where torch breaks and the static pass does not predict it yet. A `loop` mark",
        "is also torch's \"graph break in loop\" (the frame skipped for a break inside a loop). The registry",
        "also keeps ids no code of this torch raises any more (its last section, outside the totals' classes).",
        "",
        "| class | ids | predicted, proven by a golden | share |",
        "|---|---:|---:|---:|",
    ]
    for cls in ORDER:
        if total[cls]:
            lines.append(f"| {cls} | {total[cls]} | {predicted[cls]} | {predicted[cls] / total[cls]:.0%} |")
    for cls in ORDER:
        if rows[cls]:
            lines += ["", f"## {cls[0].upper()}{cls[1:]}", "", "| id | Gb_type | why | rule | golden |",
                      "|---|---|---|---|---|", *rows[cls]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/graph-breaks.md is stale")
    args = parser.parse_args(argv)
    text = render(current().data)
    if args.check:
        stale = not DOC.exists() or DOC.read_text(encoding="utf-8") != text
        print(f"{DOC.relative_to(ROOT)} is {'stale: run python scripts/graph_break_table.py' if stale else 'current'}")
        return int(stale)
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
