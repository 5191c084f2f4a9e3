"""VTL111/VTL112: guards the project visibly makes fail, so Dynamo recompiles."""

from __future__ import annotations

from vtlint.findings import Finding, Fix, Kind, Level
from vtlint.rules.base import Example, Rule, RuleContext
from vtlint.trace import Action, MergedEvent


def _runtime_words(merged: MergedEvent) -> str:
    """Dynamo's own record of the recompile, when the runtime saw it: the failing guard."""
    seen = merged.observed.detail if merged.observed else {}
    if not seen.get("failing_guard"):
        return ""
    failed, compiled = seen.get("failed_compile_id"), seen.get("compile_id")
    where = f" (compile {failed} -> {compiled})" if failed and compiled else ""
    return f"; at runtime Dynamo recompiled because `{seen['failing_guard']}` failed{where}"


def _finding(rule: Rule, merged: MergedEvent, message: str) -> Finding:
    event = merged.event
    message += "" if merged.observed is merged.event else _runtime_words(merged)
    remedy = event.detail.get("remedy")
    return Finding(rule.code, rule.kind, rule.level, event.location, message, source=event.source,
                   variable_tracker=event.variable_tracker, guard=event.guard, evidence=merged.evidence,
                   confidence=event.confidence, entry=event.entry, related=event.related, chain=event.chain,
                   fix=Fix(remedy) if remedy else None,
                   runtime=merged.observed.to_dict() if merged.observed else {})


class RecompileOnChange(Rule):
    code = "VTL111"
    name = "recompile-on-change"
    kind = Kind.RECOMPILE
    level = Level.WARNING
    summary = "A value baked into a compiled graph changes: its guard fails and Dynamo recompiles."
    what = """
Dynamo guards every constant it bakes (`EQUALS_MATCH: L['n'] == 3`, `G['cfg'].scale == 2`). When
the project calls the compiled function with another value, or assigns the global or attribute
the graph read, the guard fails on the next call and the frame is compiled again. For ints and
floats automatic dynamic shapes then makes the value a SymInt/SymFloat (one recompile); bools and
strings recompile for every new value, up to `recompile_limit` (8), after which Dynamo runs the
frame eagerly. The same holds for the other guards a call can fail: a tensor of another size (once,
then that dimension is dynamic), dtype or requires_grad (TENSOR_MATCH), another function object
(ID_MATCH), a call under another grad mode (GLOBAL_STATE: the eval step under `torch.no_grad()`),
and a list the compiled code itself appends to (its length, on every call).
"""
    why = "Each recompile costs a full trace and compile (seconds with Inductor) and can hit the recompile limit."
    fix = """
Pass values that change as tensors, compile with `dynamic=True`, mark them dynamic up front, or
keep configuration constant while the compiled function is in use.
"""
    invalid = (
        Example(
            "import torch\n\n\n@torch.compile\ndef f(x, n):\n    return x * n\n\n\n"
            "def main():\n    x = torch.randn(4)\n    f(x, 3)\n    f(x, 4)\n",
            line=12,
        ),
        Example(  # the last batch is smaller: TENSOR_MATCH fails on its size
            "import torch\n\n\n@torch.compile\ndef head(x):\n    return x.relu().mean(0)\n\n\n"
            "def main():\n    for batch in (16, 16, 8):\n        head(torch.randn(batch, 6))\n\n\n"
            "if __name__ == \"__main__\":\n    main()\n",
            line=11,
        ),
    )
    valid = (
        Example(
            "import torch\n\n\n@torch.compile\ndef f(x, n):\n    return x * n\n\n\n"
            "def main():\n    x = torch.randn(4)\n    f(x, 3)\n    f(x, 3)\n",
        ),
    )

    def applies(self, merged: MergedEvent, ctx: RuleContext) -> bool:
        return merged.event.action is Action.RECOMPILE and not merged.event.detail.get("every_call")

    def build(self, merged: MergedEvent, ctx: RuleContext) -> Finding | None:
        event = merged.event
        reason = event.detail.get("reason") or event.detail.get("failing_guard") or "a guard fails"
        if event.source:
            what = f"`{event.source}` changes here"
        else:
            what = "grad mode changes here" if event.guard_kind == "GLOBAL_STATE" else "a guarded value changes here"
        return _finding(self, merged, f"recompile: {what} — {reason}")


class ModuleIntRecompilesEveryCall(Rule):
    code = "VTL112"
    name = "module-int-attribute-recompiles"
    kind = Kind.RECOMPILE
    level = Level.WARNING
    summary = "An nn.Module int attribute changed inside forward recompiles the module on every call."
    what = """
torch.compile treats int attributes of an nn.Module as static: `L['self'].step` is baked and
guarded with `EQUALS_MATCH: L['self'].step == 0`, and automatic dynamic does not apply to it
(unless `torch._dynamo.config.allow_unspec_int_on_nn_module = True`). A `self.step += 1` in
`forward` changes it on every call, so every call fails the guard and recompiles, until the
recompile limit (8) is hit and Dynamo falls back to eager for that frame.
"""
    why = "The model never runs compiled for long: it recompiles each step, then silently runs eagerly."
    fix = """
Keep the counter in a tensor buffer (`self.register_buffer("step", torch.zeros((), dtype=torch.long))`
and `self.step += 1`), or set `torch._dynamo.config.allow_unspec_int_on_nn_module = True`.
"""
    invalid = (
        Example(
            "import torch\nfrom torch import nn\n\n\nclass Counter(nn.Module):\n    def __init__(self):\n"
            "        super().__init__()\n        self.step = 0\n\n    def forward(self, x):\n"
            "        self.step += 1\n        return x * self.step\n\n\n"
            "def main():\n    model = torch.compile(Counter())\n    for _ in range(3):\n"
            "        model(torch.randn(2))\n",
            line=11,
        ),
    )
    valid = (
        Example(
            "import torch\nfrom torch import nn\n\n\nclass Counter(nn.Module):\n    def __init__(self):\n"
            "        super().__init__()\n        self.register_buffer('step', torch.zeros(()))\n\n"
            "    def forward(self, x):\n        self.step += 1\n        return x * self.step\n\n\n"
            "def main():\n    model = torch.compile(Counter())\n    for _ in range(3):\n"
            "        model(torch.randn(2))\n",
        ),
    )

    def applies(self, merged: MergedEvent, ctx: RuleContext) -> bool:
        return merged.event.action is Action.RECOMPILE and bool(merged.event.detail.get("every_call"))

    def build(self, merged: MergedEvent, ctx: RuleContext) -> Finding | None:
        event = merged.event
        return _finding(self, merged, f"recompiles on every call: {event.detail.get('reason', '')}")
