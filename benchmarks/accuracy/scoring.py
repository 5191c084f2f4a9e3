"""How a static prediction is scored against the runtime facts of the same code.

Both traces are joined on `Event.key` (DESIGN.md's join key), per kind (graph
break, baked constant, inlined call, recompile) and per construct (what kind of
value a baked constant is, what kind of callee an inlined call has); graph
counts are compared per entry. Shared by `accuracy/run.py` and
`recompiles/run.py`, so that the two benchmarks count alike.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from vtlint.runtime.events import strip_local_scope
from vtlint.trace import Action, Event


# --- constructs ----------------------------------------------------------------


# Sources whose value is a torch.nn built-in module (nn.Linear, nn.Dropout, ...), filled
# from the observed trace before scoring: their attributes are read inside torch.nn.
BUILTIN_MODULES: set[str] = set()


def constant_construct(source: str) -> str:
    """What kind of value a baked constant is, from its Source."""
    parent = source.rpartition(".")[0]
    if parent in BUILTIN_MODULES:
        return "torch.nn built-in module attribute (eps, p, training)"
    if source.startswith("G["):
        return "global" if "." not in source and source.count("[") == 1 else "global attribute/element"
    if source.endswith((".__name__", ".__class__", "__qualname__")):
        return "class/type name"
    rest = re.sub(r"^L\['\w+'\]", "", source)
    if not rest:
        return "argument"
    if source.startswith("L['self']"):
        depth = rest.count(".") + rest.count("[")
        if "._modules[" in rest or depth > 1:
            return "submodule attribute (self.a.b)"
        return "module attribute (self.a)"
    if rest.startswith("["):
        return "argument element (x[k])"
    return "argument attribute (x.a)"


def inline_construct(event: Event) -> str:
    callee = event.callee or ""
    if ":" in callee:
        qual = callee.rpartition(":")[2]
        name = qual.rpartition(".")[2]
        if name in ("wrapper", "wrapped_func", "wrapped_fn", "inner", "decorated"):
            return "decorator wrapper"
        if "<locals>" in qual:
            return "nested function, lambda or comprehension"
        if name == "forward":
            return "project module call (forward)"
        if name.startswith("__") and name.endswith("__"):
            return "implicit dunder (__getattribute__, __init__, ...)"
        return "project method" if "." in qual else "project function"
    top = callee.split(".")[0] or "?"
    return f"library function ({top})"


KINDS: dict[str, tuple[Callable[[Event], bool], Callable[[Event], str]]] = {
    # a break on a path the static pass only guesses runs is a note, not a claim: not scored
    "graph break": (lambda e: e.action is Action.GRAPH_BREAK and not e.detail.get("guessed_path"),
                    lambda e: f"{e.gb_id} {e.gb_type}"),
    "baked constant": (lambda e: e.action is Action.WRAP and e.variable_tracker == "ConstantVariable",
                       lambda e: constant_construct(e.source or "")),
    "inlined call": (lambda e: e.action is Action.INLINE, inline_construct),
    "recompile": (lambda e: e.action is Action.RECOMPILE, lambda e: e.guard_kind or "?"),
}


# --- scoring -------------------------------------------------------------------


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    unexercised: int = 0

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None


@dataclass
class Report:
    kinds: dict[str, Score] = field(default_factory=dict)
    constructs: dict[tuple[str, str], Score] = field(default_factory=lambda: defaultdict(Score))
    misses: list[tuple[str, str, Event]] = field(default_factory=list)  # (kind, construct, observed)
    false_alarms: list[tuple[str, str, Event]] = field(default_factory=list)
    loose: dict[str, Score] = field(default_factory=dict)  # constants joined on (entry, Source) only
    graphs: list[tuple[str, int | None, int]] = field(default_factory=list)  # entry, predicted, observed


def _first(events: Iterable[Event], key: Callable[[Event], tuple[object, ...]]) -> dict[tuple[object, ...], Event]:
    out: dict[tuple[object, ...], Event] = {}
    for event in events:
        out.setdefault(key(event), event)
    return out


# --- the zoo's rules (issue 31: real models scored as on programs kept outside the project) ------

NEUTRAL_GUARDS = {"DICT_KEYS_MATCH"}  # a dict's key order: neither a hit nor a miss


def _guard_text(event: Event) -> str:
    """A guard's text without its kind, with locals spelled as the user spells them, and without the
    object ids of an ID_MATCH or TYPE_MATCH (`___check_obj_id(L['func'], 9439...)`: they differ run to run)."""
    text = event.guard or str(event.detail.get("failing_guard") or "")
    text = strip_local_scope(text.partition(": ")[2] if ": " in text else text)
    return " ".join(_OBJECT_ID.sub(")", _TYPE_SUFFIX.sub("", text)).split())


_OBJECT_ID = re.compile(r", \d+\)")
_TYPE_SUFFIX = re.compile(r", type=<[^>]*>\s*$")


def zoo_key(event: Event) -> tuple[object, ...]:
    """`Event.key`, except a recompile without a Source: matched on its guard's text."""
    if event.action is Action.RECOMPILE and not event.source:
        return (event.action.value, event.entry, "guard", _guard_text(event))
    return event.key


def score(predicted: list[Event], observed: list[Event], entries: set[str],
          exercised: Callable[[Event], bool], *, zoo_rules: bool = False) -> Report:
    """With `zoo_rules`, a recompile without a Source is matched by its guard text (`zoo_key`)
    and dict key-order guards are neutral (`NEUTRAL_GUARDS`)."""
    report = Report()
    join = zoo_key if zoo_rules else (lambda e: e.key)
    counted = (lambda e: e.guard_kind not in NEUTRAL_GUARDS) if zoo_rules else (lambda e: True)
    mine = [e for e in predicted if e.entry in entries and counted(e)]
    seen = [e for e in observed if e.entry in entries and counted(e)]
    BUILTIN_MODULES.update(e.source for e in seen if e.action is Action.WRAP and e.source
                           and e.variable_tracker == "UnspecializedBuiltinNNModuleVariable")
    for kind, (select, construct) in KINDS.items():
        pred = _first((e for e in mine if select(e) and exercised(e)), join)
        obs = _first((e for e in seen if select(e)), join)
        total = report.kinds.setdefault(kind, Score())
        total.unexercised = len({join(e) for e in mine if select(e) and not exercised(e)})
        for key, event in pred.items():
            cell = report.constructs[(kind, construct(event))]
            if key in obs:
                total.tp += 1
                cell.tp += 1
            else:
                total.fp += 1
                cell.fp += 1
                report.false_alarms.append((kind, construct(event), event))
        for key, event in obs.items():
            if key not in pred:
                total.fn += 1
                report.constructs[(kind, construct(event))].fn += 1
                report.misses.append((kind, construct(event), event))
    # constants on the Source alone: how many strict misses are only a location disagreement
    select = KINDS["baked constant"][0]
    pred_sources = {(e.entry, e.source) for e in mine if select(e) and exercised(e)}
    obs_sources = {(e.entry, e.source) for e in seen if select(e)}
    report.loose["baked constant"] = Score(len(pred_sources & obs_sources), len(pred_sources - obs_sources),
                                           len(obs_sources - pred_sources))
    frames = {e.entry: e for e in mine if e.action is Action.FRAME}
    for event in seen:
        if event.action is Action.FRAME:
            frame = frames.get(event.entry)
            predicted_count = frame.detail.get("graph_count") if frame else None
            report.graphs.append((event.entry, predicted_count, int(event.detail.get("graph_count", 0))))
    return report
