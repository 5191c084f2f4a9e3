"""Rules about the run itself rather than about Dynamo's decisions. The engine
raises them directly; they never apply to trace events."""

from __future__ import annotations

from vtlint.findings import Kind, Level
from vtlint.rules.base import Example, Rule


class SyntaxErrorRule(Rule):
    code = "VTL001"
    name = "syntax-error"
    kind = Kind.SYNTAX_ERROR
    level = Level.ERROR
    summary = "The file does not parse, so nothing in it can be predicted."
    what = (
        "Dynamo never sees this file: Python itself cannot compile it. vtlint parses every "
        "file with LibCST (the grammar of Python 3.0 to 3.12+) before predicting anything."
    )
    why = "Every compiled entry in the file, and every call that would inline into it, goes unchecked."
    fix = "Fix the syntax error at the reported position."
    invalid = (Example("def f(x:\n    return x\n", line=2),)
    valid = (Example("def f(x):\n    return x\n"),)


class IOErrorRule(Rule):
    code = "VTL002"
    name = "io-error"
    kind = Kind.IO_ERROR
    level = Level.ERROR
    summary = "The file cannot be read or decoded as Python source."
    what = (
        "Python decodes source with its BOM or `# -*- coding: ... -*-` cookie, else as UTF-8; "
        "vtlint reads files the same way and reports those it cannot."
    )
    why = "A file that cannot be read is never analyzed; its findings would silently be missing."
    fix = "Make the file readable, save it as UTF-8, or declare its encoding with a coding cookie."


class UnusedNoqaRule(Rule):
    code = "VTL901"
    name = "unused-noqa"
    kind = Kind.SUPPRESSION
    level = Level.WARNING
    default_enabled = False
    summary = "A `# noqa` for a VTL code suppresses nothing."
    what = "vtlint matches each `# noqa: VTLxxx` comment against the findings on its line."
    why = "Stale suppressions hide the next real finding on that line and mislead readers."
    fix = "Remove the unused code from the comment, or the whole comment."
    invalid = (Example("import torch\n\n@torch.compile\ndef f(x):\n    return x + 1  # noqa: VTL101\n", line=5),)
    valid = (Example("import torch\n\n@torch.compile\ndef f(x):\n    return x + 1\n"),)
