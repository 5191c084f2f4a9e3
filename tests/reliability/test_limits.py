"""Per-entry time budget: a walk that runs past it yields a "too complex"
notification for that entry, and the rest of the run goes on. (Peak memory and
time on huge inputs are measured by benchmarks/limits/run.py, not asserted here.)"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from vtlint.analyzer import project as analyzer_project
from vtlint.check import run_check
from vtlint.config import Config


def _pathological_entry(branches: int) -> str:
    """Each `if` on a tensor-free condition doubles the paths a naive walk explores."""
    body = "".join(f"    if n > {i}:\n        x = x + {i}\n    else:\n        x = x - {i}\n" for i in range(branches))
    return f"import torch\n\n\n@torch.compile\ndef slow(x, n):\n{body}    print(n)\n    return x\n\n\nslow(torch.ones(2), 3)\n"


GOOD = "import torch\n\n\n@torch.compile\ndef fine(x):\n    print(x)\n    return x\n\n\nfine(torch.ones(2))\n"


def test_an_entry_past_its_budget_is_a_too_complex_notification(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analyzer_project, "FILE_BUDGET_S", 0.0)  # every walk is over budget at its first check
    (tmp_path / "slow.py").write_text(_pathological_entry(200))
    (tmp_path / "good.py").write_text(GOOD)
    started = time.monotonic()
    result = run_check([tmp_path], Config(root=tmp_path), use_cache=False)
    assert time.monotonic() - started < 60
    limits = [n for n in result.notifications if n.kind == "limit" and "too complex" in n.message]
    assert any(n.location and n.location.path == "slow.py" for n in limits), result.notifications
    assert {e.entry for e in result.entries} == {"slow.py:slow", "good.py:fine"}


def test_a_long_entry_finishes_within_the_default_budget(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text(_pathological_entry(200))
    started = time.monotonic()
    result = run_check([tmp_path], Config(root=tmp_path), use_cache=False)
    assert time.monotonic() - started < analyzer_project.FILE_BUDGET_S + 30
    assert [e.entry for e in result.entries] == ["slow.py:slow"]
