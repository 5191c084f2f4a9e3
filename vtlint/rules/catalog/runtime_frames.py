"""VTL401/VTL402: what only a real run shows about a compiled frame -- how many
times the harness made Dynamo compile it, and whether it hit the recompile
limit and now runs eagerly. Views over the runtime's FRAME events."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

from vtlint.findings import Finding, Fix, Kind, Level
from vtlint.rules.base import Example, Rule, RuleContext
from vtlint.trace import Action, Event, MergedEvent


def _seen(merged: MergedEvent) -> Event | None:
    """The runtime's own FRAME record, whether or not the static pass predicted the frame."""
    if merged.event.action is not Action.FRAME:
        return None
    return merged.observed


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _frames(detail: dict[str, Any]) -> str:
    frames = detail.get("frames") or {}
    return ", ".join(f"{name} ×{count}" for name, count in frames.items())


def _finding(rule: Rule, merged: MergedEvent, seen: Event, message: str, fix: str) -> Finding:
    return Finding(rule.code, rule.kind, rule.level, merged.event.location, message, evidence=merged.evidence,
                   entry=seen.entry, fix=Fix(fix), runtime=seen.to_dict())


_STRING_MODES = '''import torch


@torch.compile
def f(x, mode):
    return x + len(mode)


def run():
    x = torch.ones(2)
    for i in range(1, {n}):
        f(x, "m" * i)  # a new string each call: EQUALS_MATCH fails, no automatic dynamic for str
'''

_SAME_MODE = '''import torch


@torch.compile
def f(x, mode):
    return x + len(mode)


def run():
    x = torch.ones(2)
    for _ in range(10):
        f(x, "m")
'''


class RecompileLimitReached(Rule):
    code = "VTL401"
    name = "recompile-limit-reached"
    kind = Kind.RECOMPILE
    level = Level.WARNING
    summary = "At runtime a compiled frame hit recompile_limit: Dynamo gave up and runs it eagerly."
    what = """
Each time a guard of every cached compile of a frame fails, Dynamo compiles the frame again. After
`torch._dynamo.config.recompile_limit` compiles (8 by default) it stops: "Dynamo recompile limit
exceeded" (GB0039), and from then on the frame runs in eager mode, uncompiled, without a warning
in the output of the program. Only a real run shows that the limit was hit.
"""
    why = ("The code you meant to compile silently runs eagerly after a few calls: no speed-up, "
           "and seconds lost compiling.")
    fix = """
Find the value that changes between calls (the recompile findings at the same frame, or
`TORCH_LOGS=recompiles`) and stop baking it: pass it as a tensor, mark it dynamic, or compile with
`dynamic=True`. Raising `recompile_limit` only hides the problem.
"""
    invalid = (Example(_STRING_MODES.format(n=11), line=5, runtime=True),)
    valid = (Example(_SAME_MODE, runtime=True),)

    def applies(self, merged: MergedEvent, ctx: RuleContext) -> bool:
        seen = _seen(merged)
        return seen is not None and bool(seen.detail.get("recompile_limit_hit"))

    def build(self, merged: MergedEvent, ctx: RuleContext) -> Finding | None:
        seen = _seen(merged)
        assert seen is not None
        compiles = seen.detail.get("compiles", 0)
        message = (f"`{seen.entry}` hit recompile_limit at runtime: Dynamo compiled it {compiles} times, then gave up "
                   f"(GB0039 \"Dynamo recompile limit exceeded\") and now runs it eagerly")
        return _finding(self, merged, seen, message, self.fix.strip())


class FrameRecompiled(Rule):
    code = "VTL402"
    name = "frame-recompiled"
    kind = Kind.RECOMPILE
    level = Level.NOTE
    summary = "At runtime a compiled frame was compiled three or more times."
    what = """
A compiled frame keeps one cache entry per compile, each with its own guards. The harness made
Dynamo compile this frame several times (each a full trace, plus the backend's compile), which
the recompile findings at the frame explain one guard at a time; this note gives the total that
the run measured, resume frames included.
"""
    why = ("Every compile costs a trace and a backend compile; many compiles usually mean a value "
           "that should be dynamic.")
    fix = """
Look at the recompile findings of this frame (or `TORCH_LOGS=recompiles`) and make the changing
value dynamic or a tensor.
"""
    invalid = (Example(_STRING_MODES.format(n=4), line=5, runtime=True),)
    valid = (Example(_SAME_MODE, runtime=True),)

    threshold = 3

    def fold(self, merged: list[MergedEvent], ctx: RuleContext) -> list[MergedEvent]:
        """A frame of an installed package whose recompiles the run explains guard by guard (VTL111) adds nothing
        with its total: that counts every wrapper's code object too (transformers' `can_return_tuple` and
        `deprecate_kwarg` wrappers compile once per call each), and the user acts on the guards."""
        explained = {item.event.entry for item in merged
                     if item.event.action is Action.RECOMPILE and item.observed is not None
                     and item.observed.detail.get("failing_guard")}
        return [replace(item, event=item.event.with_(detail={**item.event.detail, EXPLAINED: True}))
                if item.event.action is Action.FRAME and _installed(item.event.entry) and item.event.entry in explained
                else item for item in merged]

    def applies(self, merged: MergedEvent, ctx: RuleContext) -> bool:
        seen = _seen(merged)
        if seen is None or seen.detail.get("recompile_limit_hit"):
            return False  # VTL401 tells the worse story
        if merged.event.detail.get(EXPLAINED):
            return False
        return int(seen.detail.get("compiles", 0)) >= self.threshold

    def build(self, merged: MergedEvent, ctx: RuleContext) -> Finding | None:
        seen = _seen(merged)
        assert seen is not None
        detail = seen.detail
        # a package's frame is named by its function: the report adds where it is, beside the project line
        name = seen.entry.rpartition(":")[2] if _installed(seen.entry) else seen.entry
        message = (f"`{name}` was compiled {detail.get('compiles')} times by the harness "
                   f"({_frames(detail)}; {_plural(int(detail.get('graph_count', 0)), 'graph')})")
        return _finding(self, merged, seen, message, self.fix.strip())


EXPLAINED = "recompiles_explained"  # detail of a package's FRAME event whose recompiles VTL111 reports


def _installed(entry: str) -> bool:
    """An entry of an installed package: named by its file's absolute path (project entries are relative)."""
    return os.path.isabs(entry.rpartition(":")[0])
