"""Hostile configuration values (issue 16, item 8; issue 35, item 8): each is a
one-line error naming its file and key (exit 2), never an internal error, and never a
silently disabled limit."""

from __future__ import annotations

import os
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


# issue 35, item 8: values of the wrong type anywhere in [tool], nesting, globs ---------

DEEP = "[" * 100_000 + "]" * 100_000
BAD_TOOL = {
    "tool_an_integer": ("tool = 5", "[tool] must be a table"),
    "tool_a_boolean": ("tool = true", "[tool] must be a table"),
    "tool_a_date": ("tool = 1979-05-27", "[tool] must be a table"),
    "tool_a_string": ('tool = "vtlint"', "[tool] must be a table"),
    "vtlint_a_list": ("[tool]\nvtlint = [1]", "[tool.vtlint] must be a table"),
    "deep_array": (f"[tool.vtlint]\nexclude = {DEEP}", "nested 100000 deep"),
    "deep_inline_table": ("[tool.vtlint]\nx = " + "{a = " * 5000 + "1" + "}" * 5000, "nested 5000 deep"),
    "bad_range": ('[tool.vtlint]\nexclude = ["[z-a]"]', "[tool.vtlint].exclude: invalid glob '[z-a]'"),
    "bad_escape": ('[tool.vtlint]\nextend-exclude = ["\\\\"]', "[tool.vtlint].extend-exclude: invalid glob"),
    "fail_level_a_list": ("[tool.vtlint]\nfail-level = [1]", "[tool.vtlint].fail-level"),
    "dynamic_a_table": ("[tool.vtlint.dynamo]\ndynamic = {a = 1}", "[tool.vtlint].dynamo.dynamic"),
    "not_utf8": (b"[tool.vtlint]\nselect = ['\xff']", "not UTF-8"),
}


@pytest.mark.parametrize("name", sorted(BAD_TOOL))
@pytest.mark.parametrize("where", ["here", "parent"])
def test_a_wrong_type_anywhere_in_tool_is_a_config_error_naming_file_and_key(run_cli, tmp_path: Path, name: str,
                                                                             where: str) -> None:
    """Each was a TypeError or RecursionError traceback (exit 1) or "internal error" (exit 2), also when
    the pyproject.toml is a parent folder's (found walking up from the checked file)."""
    text, words = BAD_TOOL[name]
    config = tmp_path / "pyproject.toml"
    config.write_bytes(text if isinstance(text, bytes) else text.encode() + b"\n")
    project = tmp_path / "sub" if where == "parent" else tmp_path
    project.mkdir(exist_ok=True)
    (project / "good.py").write_bytes(GOOD)
    result = run_cli("check", "good.py", "--no-cache", cwd=project)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"vtlint: error: {config}: ") and words in result.stderr, result.stderr
    assert len(result.stderr.splitlines()) == 1 and "internal error" not in result.stderr


def test_a_huge_or_special_pyproject_is_an_error_naming_it(run_cli, tmp_path: Path) -> None:
    """Read as every file is: a regular file (a FIFO named by --config does not hang), of bounded size."""
    from vtlint.config import MAX_CONFIG_BYTES

    (tmp_path / "good.py").write_bytes(GOOD)
    config = tmp_path / "pyproject.toml"
    config.write_text("[tool.vtlint]\n# " + "x" * MAX_CONFIG_BYTES + "\n")
    result = run_cli("check", "good.py", "--no-cache", cwd=tmp_path)
    assert result.exit_code == 2 and f"{config}: cannot read: file too large" in result.stderr, result.output
    config.unlink()
    os.mkfifo(tmp_path / "fifo.toml")
    (tmp_path / "conf").symlink_to("fifo.toml")
    result = run_cli("check", "good.py", "--no-cache", "--config", "conf", cwd=tmp_path)
    assert result.exit_code == 2 and "internal error" not in result.stderr, result.output
