"""Every rule's VALID and INVALID examples are its tests (Fixit's pattern): an
INVALID example must produce the rule's finding (on its line when given), a
VALID one must not. The examples are also what `vtlint rule CODE` shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from vtlint.check import run_check
from vtlint.config import Config, DynamoSettings
from vtlint.rules.base import Example, Rule
from vtlint.rules.registry import all_rules


def _cases(kind: str) -> list[pytest.param]:
    cases = []
    for code, rule in all_rules().items():
        examples: tuple[Example, ...] = rule.invalid if kind == "invalid" else rule.valid
        cases += [pytest.param(rule, example, id=f"{code}-{kind}-{i}") for i, example in enumerate(examples)
                  if not example.runtime]  # runtime examples need torch: tests/runtime/test_runtime_rules.py
    return cases


def _findings(rule: type[Rule], example: Example, tmp_path: Path) -> list[tuple[str, int]]:
    source = tmp_path / "example.py"
    source.write_text(example.code, encoding="utf-8")
    config = Config(root=tmp_path, select=(rule.code,), dynamo=DynamoSettings(**example.dynamo))
    result = run_check([source], config, use_cache=False)
    return [(f.code, f.location.line) for f in result.findings if f.code == rule.code]


@pytest.mark.parametrize(("rule", "example"), _cases("invalid"))
def test_invalid_example_is_reported(rule: type[Rule], example: Example, tmp_path: Path) -> None:
    found = _findings(rule, example, tmp_path)
    assert found, f"{rule.code} did not fire on its INVALID example:\n{example.code}"
    if example.line is not None:
        assert (rule.code, example.line) in found, f"{rule.code} fired at {found}, expected line {example.line}"


@pytest.mark.parametrize(("rule", "example"), _cases("valid"))
def test_valid_example_is_clean(rule: type[Rule], example: Example, tmp_path: Path) -> None:
    assert _findings(rule, example, tmp_path) == [], f"{rule.code} fired on its VALID example:\n{example.code}"


@pytest.mark.parametrize("rule", list(all_rules().values()), ids=list(all_rules()))
def test_rule_metadata_is_complete(rule: type[Rule]) -> None:
    assert rule.code.startswith("VTL") and len(rule.code) == 6
    assert rule.name and rule.name == rule.name.lower() and " " not in rule.name
    for text in (rule.summary, rule.what, rule.why, rule.fix):
        assert text.strip()
    if rule.default_enabled and rule.applies is not Rule.applies:
        assert rule.invalid and rule.valid, f"{rule.code} needs VALID and INVALID examples"
    doc = rule.documentation()
    assert doc.startswith(f"# {rule.code} {rule.name}") and "## How to fix" in doc
