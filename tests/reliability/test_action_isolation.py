"""The GitHub action never runs the repository's code (issue 35, item 5): its steps run
with the checkout as the working folder, and `python -m pip` put that folder first on
sys.path, so a repository holding `pip/__main__.py` ran it (a marker file was written).
Tested as tests/sarif/test_action.py tests the action: its step run for real with bash."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ACTION = yaml.safe_load((Path(__file__).parents[2] / "action.yml").read_text(encoding="utf-8"))
STEPS = ACTION["runs"]["steps"]


def _install_step() -> str:
    return next(step["run"] for step in STEPS if step.get("name") == "Install vtlint")


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A repository whose `pip` package writes MARKER when Python imports it from the working folder."""
    repo = tmp_path / "repo"
    (repo / "pip").mkdir(parents=True)
    (repo / "pip" / "__init__.py").write_text("")
    (repo / "pip" / "__main__.py").write_text("open('MARKER', 'w').write('ran')\n")
    return repo


def _run(script: str, repo: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    action_path = tmp_path / "action"  # an empty folder: pip fails at once, with no network
    action_path.mkdir(exist_ok=True)
    env = {**os.environ, "ACTION_PATH": str(action_path), "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["bash", "-c", script], cwd=repo, env=env, capture_output=True, text=True, timeout=300)


def test_the_install_step_never_imports_from_the_checkout(checkout: Path, tmp_path: Path) -> None:
    _run(_install_step(), checkout, tmp_path)
    assert not (checkout / "MARKER").exists(), "the action ran the repository's pip/__main__.py"


def test_the_same_step_without_isolation_would_have_run_it(checkout: Path, tmp_path: Path) -> None:
    """The reproduction, so that the test above can fail: the step as it was (`python -m pip`)."""
    _run(_install_step().replace("python -I ", "python "), checkout, tmp_path)
    assert (checkout / "MARKER").read_text() == "ran"


def test_every_python_the_action_starts_is_isolated() -> None:
    """Any later `python` in a step (not the harness, which is the user's own command) takes -I too."""
    for step in STEPS:
        for call in re.findall(r"(?<![\w-])python3?(?: +-\w+)*", step.get("run", "")):
            assert "-I" in call.split(), (step["name"], call)
