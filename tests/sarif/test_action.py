"""The composite action and the example workflow: their shape, and the action's
`vtlint check` step run for real with bash."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from sarif_support import REPO, assert_valid

ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
WORKFLOW = yaml.safe_load((REPO / ".github" / "workflows" / "vtlint.yml").read_text(encoding="utf-8"))


def test_action_inputs_and_upload() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert {"paths", "runtime-command", "category", "fail-on", "baseline", "sarif-file", "upload"} <= set(ACTION["inputs"])
    uses = [step.get("uses", "") for step in ACTION["runs"]["steps"]]
    assert "github/codeql-action/upload-sarif@v3" in uses
    for step in ACTION["runs"]["steps"]:  # inputs reach scripts only through env: no script injection
        assert "${{ inputs." not in step.get("run", "")


def test_workflow_uploads_with_the_needed_permission() -> None:
    jobs = WORKFLOW["jobs"]
    uploaders = [name for name, job in jobs.items()
                 if any(s.get("uses", "").startswith(("github/codeql-action/upload-sarif", "./")) for s in job["steps"])]
    assert sorted(uploaders) == ["merge", "vtlint"]
    assert all(jobs[name]["permissions"]["security-events"] == "write" for name in uploaders)
    assert jobs["merge"]["needs"] == ["shards", "runtime"]


def _check_step() -> str:
    return next(step["run"] for step in ACTION["runs"]["steps"] if step.get("id") == "check")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text("[tool.vtlint]\n", encoding="utf-8")
    (tmp_path / "dir one").mkdir()
    (tmp_path / "dir one" / "bad.py").write_text("def f(x:\n    return x\n", encoding="utf-8")
    (tmp_path / "ok.py").write_text("x = 1\n", encoding="utf-8")
    return tmp_path


def _run_step(workspace: Path, **env: str) -> tuple[int, str, str]:
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    outputs = workspace / "github_output"
    outputs.write_text("")
    variables = {"PATHS": ".", "RUNTIME_COMMAND": "", "CATEGORY": "vtlint", "FAIL_ON": "error", "BASELINE": "",
                 "SARIF_FILE": "vtlint.sarif", "EXTRA_ARGS": "--no-cache", **env}
    environ = {**os.environ, **variables, "GITHUB_OUTPUT": str(outputs),
               "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["bash", "-e", "-c", _check_step()], cwd=workspace, env=environ, capture_output=True, text=True)
    return proc.returncode, outputs.read_text(), proc.stdout + proc.stderr


def test_action_step_writes_sarif_and_defers_failure(workspace: Path) -> None:
    code, outputs, log = _run_step(workspace, PATHS="dir one ok.py")  # split on spaces
    assert code == 2 and "dir: no such file or directory" in log and "exit-code=2" in outputs
    code, outputs, log = _run_step(workspace, CATEGORY="pr checks", PATHS="dir one\nok.py\n")  # one per line
    assert code == 0, log  # the findings fail a later step, after the upload
    assert outputs.strip() == "exit-code=1"
    sarif = assert_valid((workspace / "vtlint.sarif").read_text(encoding="utf-8"))
    assert sarif["runs"][0]["automationDetails"] == {"id": "pr checks/"}
    assert sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "dir%20one/bad.py"


def test_action_fail_on_none_and_bad_value(workspace: Path) -> None:
    code, outputs, _ = _run_step(workspace, FAIL_ON="none")
    assert code == 0 and outputs.strip() == "exit-code=0"
    code, _, log = _run_step(workspace, FAIL_ON="sometimes")
    assert code == 2 and "fail-on must be" in log
