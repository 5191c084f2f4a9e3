"""No false all-clear (observation 3): a run that analyzed no file, or whose given
paths are all excluded, says why and exits 2 unless --allow-empty; an error line is
never followed by "All checks passed"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def with_venv(project) -> Path:
    return project({
        "pyproject.toml": "[tool.vtlint]\nextend-exclude = ['generated']\n",
        ".venv/lib/python3.11/site-packages/pkg/mod.py": "import torch\n",
        "generated/g.py": "x = 1\n",
        "src/m.py": "x = 1\n",
    })


def test_an_excluded_virtualenv_names_the_exclusion(run_cli, with_venv: Path) -> None:
    result = run_cli("check", ".venv/lib/python3.11/site-packages/pkg", cwd=with_venv)
    assert result.exit_code == 2, result.output
    assert "error: no Python files analyzed" in result.output
    assert "excluded by exclude pattern '.venv' (a default)" in result.output
    assert "All checks passed" not in result.output


def test_extend_exclude_is_named_with_its_file(run_cli, with_venv: Path) -> None:
    result = run_cli("check", "generated", cwd=with_venv)
    assert result.exit_code == 2
    assert "generated: excluded by extend-exclude pattern 'generated' in pyproject.toml" in result.output


def test_a_gitignored_folder(run_cli, project) -> None:
    root = project({".gitignore": "out/\n", "out/a.py": "x = 1\n"})
    result = run_cli("check", "out", cwd=root)
    assert result.exit_code == 2 and "out: ignored by .gitignore (respect-gitignore = true)" in result.output


def test_allow_empty_exits_0_and_still_says_so(run_cli, with_venv: Path) -> None:
    result = run_cli("check", "generated", "--allow-empty", "--format", "json", cwd=with_venv)
    assert result.exit_code == 0
    assert "warning: no Python files analyzed" in result.output


def test_a_missing_path_is_never_followed_by_an_all_clear(run_cli, tmp_path: Path) -> None:
    """`vtlint check /nope` printed an error and "All checks passed in 0 files."."""
    result = run_cli("check", tmp_path / "nope", cwd=tmp_path)
    assert result.exit_code == 2
    assert "no such file or directory" in result.output
    assert "All checks passed" not in result.output


def test_a_missing_path_beside_a_clean_file(run_cli, with_venv: Path) -> None:
    result = run_cli("check", "nope", "src", cwd=with_venv)
    assert result.exit_code == 2
    assert "No findings in 1 file; 1 given path not found." in result.output
    assert "All checks passed" not in result.output


def test_json_of_an_empty_run_is_still_written(run_cli, with_venv: Path) -> None:
    result = run_cli("check", "generated", "--format", "json", "-o", "r.json", cwd=with_venv)
    assert result.exit_code == 2
    assert json.loads((with_venv / "r.json").read_text())["files_analyzed"] == 0
