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


def test_a_compiled_value_the_static_pass_cannot_follow_is_no_all_clear(run_cli, project) -> None:
    root = project({"run.py": "import torch\nfrom elsewhere import make_model\n\n"
                              "model = torch.compile(make_model())\nmodel(torch.ones(2))\n"})
    result = run_cli("check", ".", cwd=root)
    assert result.exit_code == 0, result.output
    assert "All checks passed" not in result.output
    assert "No findings in 1 file, but could not follow 1 compiled entry (run.py:4): --entry FILE:Class.forward " \
           "names what is compiled there, --runtime-command runs it." in " ".join(result.output.split())
    # it is said once, not counted again among the notes
    assert "note on what the static pass cannot resolve" not in result.output


def test_findings_beside_an_unfollowed_compile_name_it_too(run_cli, project) -> None:
    root = project({"run.py": "import torch\nfrom elsewhere import make_model\n\n\n@torch.compile\n"
                              "def f(x, n):\n    return x * n\n\n\ntorch.compile(make_model())\nf(torch.ones(2), 3)\n"})
    result = run_cli("check", ".", cwd=root)
    assert "Found 1 finding" in result.output
    assert "Could not follow 1 compiled entry (run.py:10): --entry FILE:Class.forward" in " ".join(result.output.split())


def test_a_file_too_large_to_analyze_is_no_all_clear(run_cli, project, monkeypatch) -> None:
    from vtlint.analyzer import project as analyzer_project

    monkeypatch.setattr(analyzer_project, "MAX_TOKENS", 50)
    root = project({"big.py": "x = [" + ", ".join(["1"] * 100) + "]\n"})
    result = run_cli("check", ".", "--no-cache", cwd=root)
    assert "All checks passed" not in result.output
    assert "No findings in 1 file, but 1 file was not analyzed (above)." in result.output
