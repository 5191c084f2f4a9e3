"""A rule is a small policy over the merged trace: which Dynamo decisions are
worth telling a user, at what level, in which words, with which fix. Each rule
lives in one module of `vtlint.rules.catalog` with its docs and its own VALID and
INVALID examples, which are also its tests (Fixit's pattern)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from vtlint.findings import Finding, Kind, Level
from vtlint.trace import MergedEvent

GRAPH_BREAK_SITE = "https://meta-pytorch.github.io/compile-graph-break-site/gb/"
RULE_DOCS = "https://github.com/vtlint/vtlint/blob/main/docs/rules.md"


def gb_url(gb_id: str) -> str:
    """The page of a registry id on the PyTorch graph-break site (as torch links it)."""
    return f"{GRAPH_BREAK_SITE}gb{gb_id.removeprefix('GB')}.html"


@dataclass(frozen=True)
class Example:
    """A program for a rule's docs and tests. For INVALID examples `line` is the
    line the finding must be reported on (1-based within `code`)."""

    code: str
    line: int | None = None
    dynamo: dict[str, Any] = field(default_factory=dict)  # assumed Dynamo settings
    runtime: bool = False  # needs the runtime step: its `run()` is traced (tests/runtime runs these)


@dataclass(frozen=True)
class RuleContext:
    """What a rule may consult besides the event."""

    dynamo: dict[str, Any] = field(default_factory=dict)


class Rule:
    """Subclass per rule; set the class attributes, override `applies`/`build`."""

    code: ClassVar[str]
    name: ClassVar[str]  # kebab-case, as Ruff names rules
    kind: ClassVar[Kind]
    level: ClassVar[Level]
    summary: ClassVar[str]  # one line: what it predicts
    what: ClassVar[str]  # what Dynamo does
    why: ClassVar[str]  # why it matters
    fix: ClassVar[str]  # how to fix
    gb_ids: ClassVar[tuple[str, ...]] = ()  # the registry ids it reports
    tags: ClassVar[tuple[str, ...]] = ()
    precision: ClassVar[str] = "high"  # SARIF's properties.precision
    default_enabled: ClassVar[bool] = True  # opt-in rules need an exact --select
    # (one, many): a note the default text output hides and counts ("12 built-in module notes
    # hidden"), as it does inlined calls; --show-notes shows it
    hidden_as: ClassVar[tuple[str, str] | None] = None
    valid: ClassVar[tuple[Example, ...]] = ()
    invalid: ClassVar[tuple[Example, ...]] = ()

    def applies(self, merged: MergedEvent, ctx: RuleContext) -> bool:
        """Whether this rule reports `merged`. Meta rules (syntax errors, unused
        suppressions) are raised by the engine directly and never apply to events."""
        return False

    def build(self, merged: MergedEvent, ctx: RuleContext) -> Finding | None:
        raise NotImplementedError(self.code)

    def fold(self, merged: list[MergedEvent], ctx: RuleContext) -> list[MergedEvent]:
        """Before any rule applies, an enabled rule may replace several merged events by
        one of its own (a built-in module's hyperparameters, one note per module);
        by default it changes nothing. Disabled, a rule folds nothing."""
        return merged

    @classmethod
    def doc_url(cls) -> str:
        if cls.gb_ids:
            return gb_url(cls.gb_ids[0])
        return f"{RULE_DOCS}#{cls.code.lower()}-{cls.name}"

    @classmethod
    def documentation(cls) -> str:
        """The whole documentation, as `vtlint rule CODE` prints it (Markdown)."""
        parts = [
            f"# {cls.code} {cls.name}",
            "",
            f"{cls.summary}",
            "",
            f"Kind: {cls.kind.value}. Default level: {cls.level.value}."
            + ("" if cls.default_enabled else " Opt-in: enable it with --select " + cls.code + "."),
            "",
            "## What Dynamo does",
            "",
            cls.what.strip(),
            "",
            "## Why it matters",
            "",
            cls.why.strip(),
        ]
        if cls.invalid:
            parts += ["", "## Example", "", "```python", cls.invalid[0].code.strip("\n"), "```"]
        if cls.valid:
            parts += ["", "Instead:", "", "```python", cls.valid[0].code.strip("\n"), "```"]
        parts += ["", "## How to fix", "", cls.fix.strip()]
        if cls.gb_ids:
            parts += ["", "## Graph-break registry", ""]
            parts += [f"- {gb}: {gb_url(gb)}" for gb in cls.gb_ids]
        return "\n".join(parts) + "\n"
