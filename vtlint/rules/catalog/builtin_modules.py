"""VTL403: the hyperparameters of a torch.nn built-in module (`eps`, `p`, `training`,
`normalized_shape`) that a run baked into the graph and never changed: one note per
module instance instead of one baked constant per attribute.

Dynamo inlines the `forward` of a built-in module and guards each attribute it reads by
value. On a transformers model that is a few guards per LayerNorm and Dropout of every
layer, almost all of them architecture constants the static pass could not see (the
harness built the model from its config). The rule folds the runtime-only ones per
module; an attribute the static pass predicted keeps its own VTL101 finding (confirmed
or refuted as before), and one that changed during the run (a recompile on it, or two
values in two compiles) is never folded away."""

from __future__ import annotations

from collections.abc import Iterable

from vtlint.findings import Evidence, Finding, Kind, Level
from vtlint.rules.base import Example, Rule, RuleContext
from vtlint.rules.catalog.baked_constants import VALUE_GUARDS
from vtlint.trace import Action, Event, MergedEvent

FOLDED = "builtin_hyperparameters"  # detail key of a folded event: its attributes, values and guards

_HIDDEN_DEPTH = '''import random

import torch
from torch import nn


class Stack(nn.Module):
    def __init__(self, depth):
        super().__init__()
        self.layers = nn.ModuleList(nn.LayerNorm(8) for _ in range(depth))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def run():
    # the depth is drawn when the script runs: the static pass cannot know the layers
    model = torch.compile(Stack(random.choice([2])))
    model(torch.randn(2, 8))
'''

_VISIBLE = '''import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(8)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.drop(self.norm(x))


def run():
    model = torch.compile(Block())
    model(torch.randn(2, 8))
'''


def _changed(merged: Iterable[MergedEvent]) -> set[tuple[str, str]]:
    """(entry, Source) of every value a recompile names, predicted or seen."""
    out = set()
    for item in merged:
        for event in (item.event, item.observed):
            if event is not None and event.action is Action.RECOMPILE and event.source:
                out.add((event.entry, event.source))
    return out


def _module_of(item: MergedEvent, changed: set[tuple[str, str]]) -> tuple[str, str] | None:
    """(entry, module Source) when `item` is a runtime-only hyperparameter of a built-in
    module whose value stayed the same for the whole run; None otherwise."""
    event = item.event
    owner = event.detail.get("builtin_module")
    if item.evidence is not Evidence.RUNTIME_ONLY or event.action is not Action.WRAP or not isinstance(owner, dict):
        return None
    if event.guard_kind not in VALUE_GUARDS or not event.source or not owner.get("source"):
        return None
    if (event.entry, event.source) in changed or len(event.detail.get("values") or ()) > 1:
        return None
    return event.entry, str(owner["source"])


def _attribute(source: str, module: str) -> str:
    return source[len(module):].lstrip(".") if source.startswith(module) else source


def _folded(module: str, items: list[MergedEvent]) -> MergedEvent:
    events = [item.event for item in items]
    first = min(events, key=lambda e: (e.location.line, e.location.column or 0))
    owner = dict(first.detail["builtin_module"])
    attributes = [{"attribute": _attribute(e.source or "", module), "source": e.source, "value": e.value,
                   "guard": e.guard, "variable_tracker": e.variable_tracker} for e in events]
    compiles = sorted({str(e.detail["compile_id"]) for e in events if e.detail.get("compile_id")})
    event = Event(action=Action.WRAP, location=first.location, entry=first.entry, frame=first.frame, source=module,
                  variable_tracker="UnspecializedBuiltinNNModuleVariable", chain=first.chain,
                  detail={"builtin_module": owner, FOLDED: attributes, "compile_ids": compiles})
    return MergedEvent(event, Evidence.RUNTIME_ONLY, event)


class BuiltinModuleHyperparameters(Rule):
    code = "VTL403"
    name = "builtin-module-hyperparameters"
    kind = Kind.BAKED_CONSTANT
    level = Level.NOTE
    hidden_as = ("built-in module note", "built-in module notes")
    summary = ("At runtime the hyperparameters of a torch.nn built-in module were baked into the graph and never "
               "changed: one note per module.")
    what = """
Dynamo inlines the `forward` of torch.nn built-in modules (inline_inbuilt_nn_modules) and wraps
each attribute it reads: `LayerNorm.eps` and `normalized_shape`, `Dropout.p`, `inplace` and
`training`, ... become ConstantVariables (a tuple a TupleVariable) with a value guard each
(`EQUALS_MATCH: L['self'].layers._modules['0'].eps == 1e-05`). When the static pass could not see
the module being built (a depth or a config from the harness), each of these guards would be a
runtime-only baked constant of its own. This note gathers those of one module instance whose
value stayed the same for the whole run: the attributes, their values and their guards.
"""
    why = """
These are the architecture's constants: baking them is what you want, and they change only if
the program changes them. Folded, a transformers model gives one note per LayerNorm or Dropout
instead of a handful of baked constants each. A hyperparameter the run did change (a
`model.drop.p = 0.3` between calls) is not folded: it stays a baked constant, and its recompile
is reported as one (VTL111).
"""
    fix = """
Nothing, while they stay the same: they are the model's architecture. A value you mean to change
between calls (Dropout's `p` on a schedule) recompiles the frame once per value (VTL111 tells
where); `model.eval()`/`model.train()` flips every `training` at once, one recompile per mode.
"""
    invalid = (Example(_HIDDEN_DEPTH, line=14, runtime=True),)
    valid = (Example(_VISIBLE, runtime=True),)

    def fold(self, merged: list[MergedEvent], ctx: RuleContext) -> list[MergedEvent]:
        changed = _changed(merged)
        groups: dict[tuple[str, str], list[MergedEvent]] = {}
        out: list[MergedEvent] = []
        for item in merged:
            module = _module_of(item, changed)
            if module is None:
                out.append(item)
            else:
                groups.setdefault(module, []).append(item)
        return out + [_folded(module, items) for (_entry, module), items in groups.items()]

    def applies(self, merged: MergedEvent, ctx: RuleContext) -> bool:
        return merged.event.action is Action.WRAP and bool(merged.event.detail.get(FOLDED))

    def build(self, merged: MergedEvent, ctx: RuleContext) -> Finding | None:
        event = merged.event
        owner = event.detail.get("builtin_module") or {}
        attributes = event.detail[FOLDED]
        kind = str(owner.get("type", "")).rpartition(".")[2] or "built-in module"
        values = ", ".join(f"{a['attribute']}={a['value']}" for a in attributes)
        message = (f"`{event.source}` ({kind}): {values} baked into the graph; Dynamo inlined the built-in "
                   f"module's forward and guards each by value, and none changed during the run")
        guards = "; ".join(str(a["guard"]) for a in attributes if a.get("guard"))
        return Finding(self.code, self.kind, self.level, event.location, message, source=event.source,
                       variable_tracker=event.variable_tracker, guard=guards or None, evidence=merged.evidence,
                       entry=event.entry, chain=event.chain, runtime=event.to_dict())
