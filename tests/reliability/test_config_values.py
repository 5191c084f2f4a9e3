"""Hostile configuration values (issue 16, item 8): each is a one-line error naming
its key (exit 2), never an internal error, and never a silently disabled limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from reliability.corpus import GOOD

BAD_TABLES = {
    "file_budget_inf": ("file-budget = inf", "file-budget"),
    "file_budget_huge": ("file-budget = 1e308", "file-budget"),
    "file_budget_nan": ("file-budget = nan", "file-budget"),
    "file_budget_negative": ("file-budget = -1", "file-budget"),
    "runtime_timeout_nan": ('[tool.vtlint.runtime]\ncommand = "python h.py"\ntimeout = nan', "runtime.timeout"),
    "runtime_timeout_inf": ('[tool.vtlint.runtime]\ncommand = "python h.py"\ntimeout = inf', "runtime.timeout"),
    "recompile_limit_negative": ("[tool.vtlint.dynamo]\nrecompile_limit = -5", "dynamo.recompile_limit"),
    "recompile_limit_zero": ("[tool.vtlint.dynamo]\nrecompile-limit = 0", "dynamo.recompile-limit"),
}


@pytest.mark.parametrize("name", sorted(BAD_TABLES))
def test_bad_config_values_are_one_line_errors(run_cli, tmp_path: Path, name: str) -> None:
    text, key = BAD_TABLES[name]
    (tmp_path / "pyproject.toml").write_text(f"[tool.vtlint]\n{text}\n")
    (tmp_path / "good.py").write_bytes(GOOD)
    result = run_cli("check", ".", "--no-cache", cwd=tmp_path)
    assert result.exit_code == 2, result.output
    assert key in result.stderr and "internal error" not in result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr


@pytest.mark.parametrize("value", ["nan", "inf", "-3", "0"])
def test_bad_runtime_timeout_options_are_usage_errors(run_cli, tmp_path: Path, value: str) -> None:
    (tmp_path / "good.py").write_bytes(GOOD)
    for args in (["check", ".", "--no-cache", "--runtime-command", "python h.py", "--runtime-timeout", value],
                 ["trace", "--timeout", value, "--", "python", "h.py"]):
        result = run_cli(*args, cwd=tmp_path)
        assert result.exit_code == 2 and "timeout" in result.stderr, result.output
        assert "internal error" not in result.stderr and not (tmp_path / "vtlint-facts.json").exists()
