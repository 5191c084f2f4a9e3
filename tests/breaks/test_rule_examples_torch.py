"""The VTL2xx examples are real programs: torch 2.13 breaks each INVALID one on its
line with an id of the rule's family, and compiles each VALID one in one graph."""

from __future__ import annotations

import pytest

from tests.oracle import observe
from vtlint.rules.base import Example, Rule
from vtlint.rules.catalog import graph_break
from vtlint.rules.catalog.graph_break import GraphBreakRule
from vtlint.rules.registry import all_rules
from vtlint.trace import Action

RULES = {code: rule for code, rule in all_rules().items() if issubclass(rule, GraphBreakRule)}
RUN = "\n\ndef run():\n    f(torch.ones(3))\n"


def _programs() -> dict[str, tuple[type[Rule], Example, str]]:
    out = {}
    for code, rule in RULES.items():
        for kind, examples in (("invalid", rule.invalid), ("valid", rule.valid)):
            for i, example in enumerate(examples):
                out[f"{code}_{kind}_{i}"] = (rule, example, kind)
    return out


PROGRAMS = _programs()


def _source(example: Example) -> str:
    config = "".join(f"torch._dynamo.config.{k} = {v!r}\n" for k, v in example.dynamo.items())
    return example.code + RUN + ("\n" + config if config else "")


@pytest.fixture(scope="module")
def seen() -> dict:
    return observe({name: _source(example) for name, (_, example, _) in PROGRAMS.items()})


@pytest.mark.torch
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_example_against_torch(name: str, seen: dict) -> None:
    rule, example, kind = PROGRAMS[name]
    observation = seen[name]
    found = [(e.location.line, e.gb_id, bool(e.detail.get("in_loop"))) for e in observation.of(Action.GRAPH_BREAK)]
    if kind == "valid":
        assert found == [], f"{name}: torch broke the graph: {found}"
        return
    family = set(rule.gb_ids)
    if rule is graph_break.OtherGraphBreak:
        assert any(line == example.line and gb not in graph_break._FAMILY_IDS for line, gb, _ in found), found
    elif rule is graph_break.GraphBreakInLoop:
        assert any(line == example.line and in_loop for line, _, in_loop in found), found
    else:
        assert any(line == example.line and gb in family for line, gb, _ in found), f"{name}: {found}"
