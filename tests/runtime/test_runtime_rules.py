"""The VALID/INVALID examples of rules that need the runtime step (Example.runtime):
all traced in one subprocess, then checked through run_check with the runtime merged."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle import Observation, observe, write_programs
from vtlint.check import run_check
from vtlint.config import Config
from vtlint.rules.registry import all_rules

pytestmark = pytest.mark.torch

CASES = [(code, kind, i, example)
         for code, rule in all_rules().items()
         for kind, examples in (("invalid", rule.invalid), ("valid", rule.valid))
         for i, example in enumerate(examples) if example.runtime]


def _name(code: str, kind: str, i: int) -> str:
    return f"{code.lower()}_{kind}_{i}"


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Observation]]:
    root = tmp_path_factory.mktemp("runtime_rules")
    programs = {_name(c, k, i): e.code for c, k, i, e in CASES}
    return root, observe(programs, root=root, timeout=300)


@pytest.mark.parametrize(("code", "kind", "i", "example"), CASES, ids=[f"{c}-{k}-{i}" for c, k, i, _ in CASES])
def test_runtime_example(code, kind, i, example, seen) -> None:
    root, observations = seen
    name = _name(code, kind, i)
    obs = observations[name]
    assert obs.error is None, obs.error
    path = root / f"{name}.py"
    write_programs({name: example.code}, root)
    result = run_check([path], Config(root=root, select=(code,)), use_cache=False, runtime=obs.runtime_input())
    found = [(f.code, f.location.line) for f in result.findings if f.code == code]
    if kind == "invalid":
        assert found, f"{code} did not fire on its INVALID example"
        if example.line is not None:
            assert (code, example.line) in found
    else:
        assert found == [], f"{code} fired on its VALID example: {found}"
