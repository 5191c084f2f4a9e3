"""Issue 16 item 1: the trace_rules snapshot build (a subprocess vtlint starts on its own
behalf) runs isolated from the scanned tree. It used to run `python -m ...build` from the
current folder, which put that folder first on sys.path: a project module named like a
standard-library module (`bisect.py`, which `random` imports) ran during `vtlint check`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from vtlint.analyzer import breaks
from vtlint.cli import main
from vtlint.rules.trace_rules import snapshot

# Imported from the project folder, this would leave MARKER next to it.
HOSTILE = "import pathlib\npathlib.Path(__file__).with_name('MARKER').write_text('ran')\n"
PROGRAM = "import torch\n\n\n@torch.compile\ndef f(x):\n    return x.sin()\n"


def _project(root: Path) -> Path:
    project = root / "s"
    project.mkdir()
    (project / "bisect.py").write_text(HOSTILE, encoding="utf-8")
    (project / "a.py").write_text(PROGRAM, encoding="utf-8")
    return project


@pytest.mark.torch
def test_check_with_a_snapshot_build_never_imports_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`vtlint check a.py` from the project folder, with a torch that has no shipped
    snapshot (forced here), and PYTHONPATH naming the folder too: the build succeeds
    and nothing from the folder runs."""
    project = _project(tmp_path)
    monkeypatch.chdir(project)
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PYTHONPATH", str(project))
    monkeypatch.delenv("VTLINT_NO_SNAPSHOT_BUILD", raising=False)
    monkeypatch.setattr(snapshot, "_shipped_for", lambda version: None)  # every release but the shipped ones
    snapshot.current.cache_clear()
    breaks.reset()
    try:
        result = CliRunner().invoke(main, ["check", "a.py", "--no-cache", "--format", "json"])
        assert snapshot.current().origin == "built", snapshot.current().notifications
    finally:
        snapshot.current.cache_clear()
        breaks.reset()
    assert result.exit_code in (0, 1), result.output
    assert not (project / "MARKER").exists(), "the snapshot build imported the project's bisect.py"


@pytest.mark.torch
def test_rules_refresh_in_a_hostile_folder_never_imports_it(tmp_path: Path) -> None:
    project = _project(tmp_path)
    vtlint = shutil.which("vtlint", path=str(Path(sys.executable).parent)) or pytest.fail("no vtlint script")
    env = os.environ | {"VTLINT_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([vtlint, "rules", "--refresh"], cwd=project, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "trace_rules snapshot for torch" in proc.stderr
    assert not (project / "MARKER").exists(), "vtlint rules --refresh imported the project's bisect.py"


def test_the_build_command_is_isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """-I (no current folder, script folder, PYTHON* variable or user site on sys.path),
    and the environment keeps no PYTHON* or TORCH* variable."""
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv("TORCHDYNAMO_VERBOSE", "1")
    command = snapshot.build_command(tmp_path / "out.json")
    assert command[:3] == [sys.executable, "-I", "-c"] and command[-2] == str(snapshot.PACKAGE_DIR)
    assert not [name for name in snapshot.build_env() if name.startswith(("PYTHON", "TORCH"))]


def test_the_isolated_bootstrap_imports_this_vtlint_from_any_folder(tmp_path: Path) -> None:
    """Without torch: the bootstrap's import of vtlint alone (its build module is then
    swapped for one that reports where vtlint came from), from a folder holding a fake
    `vtlint` package that -m or a PYTHONPATH would have picked."""
    decoy = tmp_path / "vtlint"
    decoy.mkdir()
    (decoy / "__init__.py").write_text(HOSTILE, encoding="utf-8")
    probe = snapshot.BOOTSTRAP.replace(
        "from vtlint.rules.trace_rules.build import main\nsys.exit(main([sys.argv[0], target]))\n",
        "import vtlint.rules.trace_rules.snapshot as s\nprint(s.__file__)\n",
    )
    assert probe != snapshot.BOOTSTRAP
    command = [sys.executable, "-I", "-c", probe, str(snapshot.PACKAGE_DIR), str(tmp_path / "out.json")]
    env = snapshot.build_env() | {"PYTHONPATH": str(tmp_path)}
    proc = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=True)
    assert Path(proc.stdout.strip()) == Path(snapshot.__file__).resolve()
    assert not (tmp_path / "MARKER").exists()
