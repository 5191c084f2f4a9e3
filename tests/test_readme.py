"""The README's commands work as written (observations 4 and 5): the tour's
`vtlint examples/` prints exactly what the README shows; after `make demo` the README
and the demo itself say how to put vtlint on PATH; nothing offers `pip install vtlint`
(it is not on the package index) or an action tag that does not exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def _console(command: str) -> str:
    start = README.index(f"```console\n$ {command}\n") + len(f"```console\n$ {command}\n")
    return README[start:README.index("```", start)]


def test_the_tour_prints_what_the_readme_shows(run_cli) -> None:
    result = run_cli("examples/", cwd=REPO)
    assert result.exit_code == 1
    assert result.output == _console("vtlint examples/")


def test_the_runtime_tour_has_its_harness() -> None:
    assert "cd examples && vtlint check . --runtime" in README
    assert 'command = "python harness.py"' in (REPO / "examples" / "pyproject.toml").read_text()


def test_vtlint_is_put_on_path_after_make_demo() -> None:
    assert ". .venv/bin/activate" in README
    demo = (REPO / "Makefile").read_text().split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    assert "$(VENV)/bin/activate" in demo and "@echo" in demo


@pytest.mark.parametrize("doc", ["README.md", "docs/github.md", "vscode/README.md", ".github/workflows/vtlint.yml"])
def test_no_install_or_action_that_does_not_exist(doc: str) -> None:
    text = (REPO / doc).read_text(encoding="utf-8")
    assert not re.search(r"pip install (--upgrade )?vtlint\b(?![/\w-])", text), doc
    assert "@v0" not in text, doc


def test_pre_commit_hook_runs_the_installed_command() -> None:
    yaml = pytest.importorskip("yaml")
    [hook] = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "vtlint" and hook["language"] == "python" and hook["entry"] == "vtlint check"
    scripts = (REPO / "pyproject.toml").read_text()
    assert re.search(r'^vtlint = "vtlint\.cli:main"', scripts, re.M)
