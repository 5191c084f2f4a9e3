"""Shared fixtures: run the CLI in-process, build small projects on disk, install the package `tinylib`."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.analyzer.library_package import install
from vtlint.cli import main


@pytest.fixture
def run_cli(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """Invoke `vtlint ARGS` in-process, in `cwd` (no cache, so tests stay independent)."""

    def invoke(*args: str, cwd: Path | None = None) -> Result:
        if cwd is not None:
            monkeypatch.chdir(cwd)
        return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)

    return invoke


@pytest.fixture
def project(tmp_path: Path) -> Callable[[dict[str, str]], Path]:
    """Write {relative path: source} under a temporary project root."""

    def make(files: dict[str, str]) -> Path:
        for rel, text in files.items():
            target = tmp_path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(textwrap.dedent(text), encoding="utf-8")
        return tmp_path

    return make


@pytest.fixture
def unreadable(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Make opening any file of this name fail with EACCES (tests run as root, where
    chmod 000 does not bite: the open itself fails). Sources are read through
    vtlint.bounded, other files through Path.read_bytes."""
    import vtlint.bounded

    def deny(name: str) -> None:
        real_read, real_open = Path.read_bytes, vtlint.bounded._open_regular

        def refuse(path: Path) -> None:
            if Path(path).name == name:
                raise PermissionError(13, "Permission denied", str(path))

        def read_bytes(self: Path) -> bytes:
            refuse(self)
            return real_read(self)

        def open_regular(path: Path, limit: int) -> tuple[int, int]:
            refuse(path)
            return real_open(path, limit)

        monkeypatch.setattr(Path, "read_bytes", read_bytes)
        monkeypatch.setattr(vtlint.bounded, "_open_regular", open_regular)

    return deny


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tinylib (tests/analyzer/library_package.py) installed into a temporary site-packages on sys.path."""
    folder = tmp_path / "env" / "lib" / "site-packages"
    install(folder)
    monkeypatch.setattr(sys, "path", [str(folder), *sys.path])
    return folder
