"""Helpers for the SARIF tests: a small repository with findings of every shape
(all fields filled), and the validator every produced log must pass."""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vtlint.check import CheckResult
from vtlint.findings import Edit, Evidence, Finding, Fix, Kind, Level, Location, Notification, Related
from vtlint.report.sarif import build_log
from vtlint.report.uris import Paths
from vtlint.rules.base import Example, Rule

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("validate_sarif", REPO / "scripts" / "validate_sarif.py")
assert _spec and _spec.loader
validate_sarif = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(validate_sarif)


class BakedConstantRule(Rule):
    code = "VTL101"
    name = "baked-constant"
    kind = Kind.BAKED_CONSTANT
    level = Level.WARNING
    summary = "An int argument is baked into the graph as a ConstantVariable."
    what = "Dynamo wraps the int as ConstantVariable and installs EQUALS_MATCH on its Source."
    why = "Each new value fails the guard and recompiles the frame."
    fix = "Pass a tensor, or mark the value dynamic."
    tags = ("performance", "recompile")
    invalid = (Example("import torch\n\n@torch.compile\ndef f(x, n):\n    return x * n\n", line=5),)


class PrintBreakRule(Rule):
    code = "VTL201"
    name = "graph-break-print"
    kind = Kind.GRAPH_BREAK
    level = Level.ERROR
    summary = "print() breaks the graph."
    what = "print is a SkipFunctionVariable: Dynamo ends the graph and resumes after the call. " * 30
    why = "Two graphs and a Python round trip instead of one graph."
    fix = "Remove the print or use torch._dynamo.config.reorderable_logging_functions."
    gb_ids = ("GB0059",)


SOURCE = """import torch


def helper(t):
    print(t)
    return t * 3


def f(x, n):
    y = helper(x)
    return y * n


g = torch.compile(f)
g(torch.ones(2), 3)
g(torch.ones(2), 4)
"""

MODULE = "src/model dir/ünï.py"  # a space and non-ASCII characters: percent-encoded in URIs
ENTRY = f"{MODULE}:f"


@dataclass
class Sample:
    root: Path  # the repository and project root
    result: CheckResult

    def log(self, **kwargs: Any) -> dict[str, Any]:
        return build_log(self.result, Paths.for_root(self.root), **kwargs)


def sample_findings(shift: int = 0) -> list[Finding]:
    """Findings on SOURCE; `shift` moves every line down, as inserted lines would."""

    def at(line: int, col: int, end_col: int, path: str = MODULE) -> Location:
        return Location(path, line + shift, col, line + shift, end_col)

    baked = Finding(
        "VTL101", Kind.BAKED_CONSTANT, Level.WARNING, at(11, 16, 17),
        "L['n'] is baked into the graph as ConstantVariable(3)",
        source="L['n']", variable_tracker="ConstantVariable", guard="EQUALS_MATCH: L['n'] == 3",
        evidence=Evidence.CONFIRMED, entry=ENTRY,
        related=(Related(at(16, 1, 20), "n changes to 4 here"), Related(at(9, 1, 12), "compiled entry f")),
        fix=Fix("Pass n as a tensor", (Edit(at(11, 16, 17), "torch.tensor(n)"),), safe=True),
        runtime={"recompiles": 1},
    )
    brk = Finding(
        "VTL201", Kind.GRAPH_BREAK, Level.ERROR, at(5, 5, 13),
        "print() breaks the graph (GB0059)",
        gb_id="GB0059", variable_tracker="SkipFunctionVariable", evidence=Evidence.PREDICTED, confidence="medium",
        entry=ENTRY,
        chain=(Related(at(10, 9, 18), "f calls helper (inlined as UserFunctionVariable)"),),
        fix=Fix("Remove the print"),
    )
    syntax = Finding("VTL001", Kind.SYNTAX_ERROR, Level.ERROR, Location("broken.py", 2, 11), "SyntaxError: expected ')'")
    return sorted([baked, brk, syntax], key=lambda f: f.sort_key)


def sample_result(findings: list[Finding]) -> CheckResult:
    from vtlint.rules.catalog.meta import SyntaxErrorRule

    return CheckResult(
        findings=findings,
        notifications=[
            Notification("runtime-fault", "harness exited with code 1", Level.ERROR),
            Notification("parse-error", "trace cut off", Level.WARNING, Location(MODULE, 3, 1)),
        ],
        files=[MODULE, "broken.py"],
        rules={"VTL001": SyntaxErrorRule, "VTL101": BakedConstantRule, "VTL201": PrintBreakRule},
        torch_version="2.13.0",
        runtime={"command": "python train.py", "status": "exit 1"},
    )


def write_repo(root: Path, shift: int = 0) -> None:
    (root / ".git").mkdir(exist_ok=True)
    (root / "pyproject.toml").write_text("[tool.vtlint]\n", encoding="utf-8")
    module = root / MODULE
    module.parent.mkdir(parents=True, exist_ok=True)
    module.write_text("# a comment\n" * shift + SOURCE, encoding="utf-8")
    (root / "broken.py").write_text("def f(x:\n    return x\n", encoding="utf-8")


def problems(log: dict[str, Any]) -> list[str]:
    """Schema (the official SARIF 2.1.0 schema) and GitHub ingestion problems."""
    return validate_sarif.schema_problems(log) + validate_sarif.github_rule_problems(log)


def assert_valid(log: dict[str, Any] | str) -> dict[str, Any]:
    data = json.loads(log) if isinstance(log, str) else log
    found = problems(data)
    assert not found, "\n".join(found)
    return data
