"""VTL101/VTL102: Python values Dynamo bakes into the graph as constants.

A scalar read from outside the graph (an argument, a global, an attribute, a
container element, a closure cell) becomes a ConstantVariable: the graph holds
its value, and a guard on its Source checks it on every call."""

from __future__ import annotations

from vtlint.findings import Evidence, Finding, Fix, Kind, Level
from vtlint.rules.base import Example, Rule, RuleContext
from vtlint.trace import Action, MergedEvent

VALUE_GUARDS = frozenset({"EQUALS_MATCH", "TRUE_MATCH", "FALSE_MATCH", "ID_MATCH", "NONE_MATCH"})


def _raw(merged: MergedEvent) -> str:
    raw = merged.event.detail.get("raw_source")
    return f" (Dynamo spells the Source `{raw}`)" if raw else ""


class BakedConstant(Rule):
    code = "VTL101"
    name = "baked-constant"
    kind = Kind.BAKED_CONSTANT
    level = Level.NOTE
    summary = "A Python scalar from outside the graph is baked into it as a constant, behind a value guard."
    what = """
When traced code uses an int, float, bool or str that comes from outside the frame (an argument,
a global, an attribute, a list element, a closure cell), Dynamo wraps it as a ConstantVariable
with a Source such as `L['n']` or `G['cfg'].scale`. The graph holds the value itself (`x * 3`, not
`x * n`), and Dynamo installs a guard on the Source — `EQUALS_MATCH: L['n'] == 3`,
`TRUE_MATCH: L['flag'] == True` — that is checked before every call.
"""
    why = """
A baked value is correct only while it stays the same: a different value fails the guard and
recompiles the frame. That is often what you want (a model hyper-parameter); it is a problem
when the value changes from call to call (a step counter, a learning rate).
"""
    fix = """
Nothing, if the value is a true constant. If it changes, pass it as a tensor, compile with
`dynamic=True`, or let automatic dynamic shapes make ints and floats symbolic after their first
change. See VTL111 for the changes vtlint can see.
"""
    invalid = (
        Example(
            "import torch\n\n\n@torch.compile\ndef f(x, n):\n    return x * n\n\n\n"
            "def main():\n    f(torch.randn(4), 3)\n",
            line=6,
        ),
    )
    valid = (
        Example(
            "import torch\n\n\n@torch.compile\ndef f(x, n):\n    return x * n\n\n\n"
            "def main():\n    f(torch.randn(4), torch.tensor(3))\n",
        ),
    )

    def applies(self, merged: MergedEvent, ctx: RuleContext) -> bool:
        event = merged.event
        return event.action is Action.WRAP and event.guard_kind in VALUE_GUARDS

    def build(self, merged: MergedEvent, ctx: RuleContext) -> Finding | None:
        event = merged.event
        value = f" as {event.value}" if event.value is not None else " (value known only at runtime)"
        guard = event.guard or f"{event.guard_kind} on {event.source}"
        message = (f"`{event.source}` is baked into the graph{value}: Dynamo wraps it as a "
                   f"{event.variable_tracker} and guards `{guard}`{_raw(merged)}")
        if event.detail.get("nn_module_attribute") and event.detail.get("static", True):
            message += "; int attributes of an nn.Module stay static (allow_unspec_int_on_nn_module=False)"
        if event.confidence == "low" and merged.observed is None:
            message += " (low confidence: a guess made without seeing the value Dynamo will get, e.g. a default)"
        seen = merged.observed
        if merged.evidence is Evidence.REFUTED and seen is not None:
            baked = f"baked it as {seen.value}" if seen.value is not None else f"wrapped it as a {seen.variable_tracker}"
            message += f"; at runtime Dynamo {baked} (`{seen.guard}`)"
        return Finding(self.code, self.kind, self.level, event.location, message, source=event.source,
                       variable_tracker=event.variable_tracker, guard=event.guard, evidence=merged.evidence,
                       confidence=event.confidence, entry=event.entry, chain=event.chain,
                       runtime=merged.observed.to_dict() if merged.observed else {})


class BakedLength(Rule):
    code = "VTL102"
    name = "baked-container-length"
    kind = Kind.BAKED_CONSTANT
    level = Level.NOTE
    summary = "A list or tuple from outside the graph is unrolled: its length is guarded."
    what = """
A list or tuple argument becomes a ListVariable/TupleVariable whose elements are wrapped one by
one (`L['items'][0]`, ...). Dynamo installs `LENGTH_CHECK: len(L['items']) == 2` (plus a
TYPE_MATCH), and loops over it are unrolled into the graph.
"""
    why = "A call with a list of another length fails the guard and recompiles; long lists make long graphs."
    fix = "Pass a tensor (torch.stack the elements) when the length or the values change between calls."
    invalid = (
        Example(
            "import torch\n\n\n@torch.compile\ndef f(x, items):\n    return x + items[0]\n\n\n"
            "def main():\n    f(torch.randn(4), [1, 2])\n",
            line=6,
        ),
    )
    valid = (
        Example(
            "import torch\n\n\n@torch.compile\ndef f(x, items):\n    return x + items[0]\n\n\n"
            "def main():\n    f(torch.randn(4), torch.tensor([1, 2]))\n",
        ),
    )

    def applies(self, merged: MergedEvent, ctx: RuleContext) -> bool:
        event = merged.event
        return event.action is Action.WRAP and event.guard_kind == "LENGTH_CHECK"

    def build(self, merged: MergedEvent, ctx: RuleContext) -> Finding | None:
        event = merged.event
        length = f" == {event.value}" if event.value is not None else ""
        message = (f"`{event.source}` is a {event.variable_tracker}: its length is baked in and guarded "
                   f"(`LENGTH_CHECK: len({event.source}){length}`); its elements are wrapped one by one")
        return Finding(self.code, self.kind, self.level, event.location, message, source=event.source,
                       variable_tracker=event.variable_tracker, guard=event.guard, evidence=merged.evidence,
                       confidence=event.confidence, entry=event.entry, chain=event.chain,
                       fix=Fix("pass a tensor instead of a Python list when its length changes"),
                       runtime=merged.observed.to_dict() if merged.observed else {})
