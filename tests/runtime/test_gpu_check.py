"""`make gpu-check` on a machine without a CUDA GPU: one line saying so, exit 0, nothing run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "gpu_check.sh"


def _run(python: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"GPU_PYTHON": python, "TMPDIR": str(tmp_path), "CUDA_VISIBLE_DEVICES": ""}
    env.pop("GPU_CHECK_DEVICE", None)
    return subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.torch
def test_without_a_gpu_it_says_so_and_exits_cleanly(tmp_path: Path) -> None:
    proc = _run(sys.executable, tmp_path)  # a CPU torch, and no device visible
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == f"gpu-check: no CUDA GPU visible to {sys.executable} (no torch, a CPU build, or no device): " \
                          "nothing to check.\n"
    assert not list(tmp_path.iterdir()), "it started a check"


def test_without_torch_it_says_so_and_exits_cleanly(tmp_path: Path) -> None:
    proc = _run(str(tmp_path / "no-such-python"), tmp_path)
    assert proc.returncode == 0 and "no CUDA GPU visible" in proc.stdout
