"""End to end against torch: a break the static pass cannot see (a builtin reached
through a dynamic `getattr`) is reported `runtime-only`, and a wrong prediction (a
guessed `None` default that the harness passes a tensor) is `refuted`."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle import Observation, observe, write_programs
from vtlint.check import run_check
from vtlint.config import Config
from vtlint.findings import Evidence

pytestmark = pytest.mark.torch

PROGRAMS = {
    "hidden_print": """
import builtins
import torch

@torch.compile
def f(x):
    show = getattr(builtins, "".join(chr(c) for c in (112, 114, 105, 110, 116)))
    show("hello")
    return x + 1

def run():
    f(torch.ones(2))
""",
    "guessed_default": """
import random

import torch

@torch.compile
def f(x, mask=None):
    if mask is None:
        return x + 1
    return x * mask

def run():
    args = [torch.ones(2)] * random.choice([2])  # how many only the run knows (a draw)
    f(*args)
""",
}


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Observation]]:
    root = tmp_path_factory.mktemp("evidence")
    return root, observe(PROGRAMS, root=root, timeout=300)


def _findings(name: str, seen: tuple[Path, dict[str, Observation]]) -> list[tuple[str, int, Evidence, str | None]]:
    root, observations = seen
    assert observations[name].error is None, observations[name].error
    write_programs({name: PROGRAMS[name]}, root)
    result = run_check([root / f"{name}.py"], Config(root=root), use_cache=False,
                       runtime=observations[name].runtime_input())
    return [(f.code, f.location.line, f.evidence, f.gb_id or f.source) for f in result.findings]


def test_a_break_through_dynamic_getattr_is_runtime_only(seen) -> None:
    found = _findings("hidden_print", seen)
    assert ("VTL202", 7, Evidence.RUNTIME_ONLY, "GB0059") in found
    assert not [f for f in found if f[2] is Evidence.PREDICTED]


def test_a_guessed_none_default_passed_a_tensor_is_refuted(seen) -> None:
    found = _findings("guessed_default", seen)
    assert ("VTL101", 7, Evidence.REFUTED, "L['mask']") in found
    assert not [f for f in found if f[2] is Evidence.CONFIRMED and f[3] == "L['mask']"]
