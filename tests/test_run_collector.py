"""`vtlint check` runs with the collector's thresholds raised (a run's trees live until it ends) and puts
them back as they were, for whoever called it in-process."""

from __future__ import annotations

import gc
from typing import Any

import pytest

import vtlint.cli


def test_check_runs_with_raised_thresholds_and_restores_them(run_cli, project,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int, int]] = []
    real = vtlint.cli.run_check

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.get_threshold())
        return real(*args, **kwargs)

    monkeypatch.setattr(vtlint.cli, "run_check", spy)
    before = gc.get_threshold()
    root = project({"ok.py": "x = 1\n"})
    result = run_cli("check", root, "--no-cache")
    assert result.exit_code == 0, result.output
    assert seen == [(100_000, 50, 10)]
    assert gc.get_threshold() == before
