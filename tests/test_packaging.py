"""torch is not a dependency of vtlint: `pip install vtlint` never installs, upgrades or
downgrades the user's torch. Checked on the metadata `pip install .` installs, built by
setuptools' own PEP 517 hook from this pyproject.toml (no network, no install)."""

from __future__ import annotations

import email
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TORCH = re.compile(r"torch\b(?![-_.\w])", re.IGNORECASE)


def _built_metadata(tmp_path: Path) -> email.message.Message:
    """The METADATA of a wheel of this project (setuptools' prepare_metadata_for_build_wheel
    on a copy of what metadata is made of, so the working tree gets no egg-info)."""
    project = tmp_path / "project"
    (project / "vtlint").mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    shutil.copy(ROOT / "vtlint" / "__init__.py", project / "vtlint" / "__init__.py")
    out = tmp_path / "metadata"
    out.mkdir()
    hook = "import sys; from setuptools import build_meta; print(build_meta.prepare_metadata_for_build_wheel(sys.argv[1]))"
    proc = subprocess.run([sys.executable, "-c", hook, str(out)], cwd=project, capture_output=True, text=True,
                          check=True, timeout=120)
    dist_info = proc.stdout.strip().splitlines()[-1]
    return email.message_from_string((out / dist_info / "METADATA").read_text(encoding="utf-8"))


def test_installing_vtlint_never_touches_torch(tmp_path: Path) -> None:
    requires = _built_metadata(tmp_path).get_all("Requires-Dist") or []
    assert "click>=8.1" in requires
    # nor in an extra: `pip install -e '.[dev]'` into a CUDA environment keeps its torch
    assert not [r for r in requires if TORCH.match(r)], "torch is a requirement of vtlint"


def test_the_makefile_installs_the_pinned_cpu_torch_for_the_tests() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    torch_line = makefile.index("install -q --disable-pip-version-check $(TORCH)")
    extra_line = makefile.index("install -q --disable-pip-version-check -e '.[dev]'")
    assert torch_line < extra_line and "TORCH  ?= torch==2.13.0" in makefile
