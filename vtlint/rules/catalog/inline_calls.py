"""VTL301: calls Dynamo inlines (UserFunctionVariable): entrances, not breaks."""

from __future__ import annotations

from vtlint.findings import Finding, Kind, Level
from vtlint.rules.base import Example, Rule, RuleContext
from vtlint.trace import Action, MergedEvent


class InlinedCall(Rule):
    code = "VTL301"
    name = "inlined-call"
    kind = Kind.INLINED_CALL
    level = Level.NOTE
    summary = "A call to your own code is inlined into the caller's graph."
    what = """
A call to a function you wrote is wrapped as a UserFunctionVariable. Dynamo does not break the
graph there: it opens an InliningInstructionTranslator, traces the callee's bytecode and splices
the result into the same graph. The arguments keep their Sources, so guards installed inside the
callee still name the caller's values (`L['n']`).
"""
    why = """
Everything the callee does counts as the compiled entry's code: a graph break inside it breaks
the caller's graph too (reported at the callee's line with this call in the chain).
"""
    fix = "Nothing to fix: this note explains where the callee's guards and breaks come from."
    invalid = (
        Example(
            "import torch\n\n\ndef helper(t):\n    return t * 3\n\n\n@torch.compile\ndef f(x):\n"
            "    return helper(x) + 1\n\n\ndef main():\n    f(torch.randn(4))\n",
            line=10,
        ),
    )
    valid = (
        Example("import torch\n\n\n@torch.compile\ndef f(x):\n    return x * 3 + 1\n\n\n"
                "def main():\n    f(torch.randn(4))\n"),
    )

    def applies(self, merged: MergedEvent, ctx: RuleContext) -> bool:
        return merged.event.action is Action.INLINE

    def build(self, merged: MergedEvent, ctx: RuleContext) -> Finding | None:
        event = merged.event
        callee = (event.callee or "").rpartition(":")[2] or event.callee
        message = f"`{callee}` is inlined here (UserFunctionVariable): its body is traced into this graph"
        seen = merged.observed
        if event.detail.get("guessed_path") and seen is None:
            message += " (on a path the static pass cannot tell runs)"
        if seen is not None and seen.action is Action.FRAME:
            message += (f"; at runtime Dynamo compiled `{callee}` as its own frame "
                        f"({seen.detail.get('compiles', 0)} compiles): the call ran eagerly")
        return Finding(self.code, self.kind, self.level, event.location, message,
                       variable_tracker=event.variable_tracker or "UserFunctionVariable", evidence=merged.evidence,
                       confidence=event.confidence, entry=event.entry, chain=event.chain,
                       runtime=merged.observed.to_dict() if merged.observed else {})
