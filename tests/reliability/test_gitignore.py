""".gitignore files are read bounded (issue 35, item 9): 10 MB on one line took 11.5 s
and 1 GB, a 1 GB sparse one was still running at 120 s with 2.1 GB. Now a .gitignore
over the size, line or pattern cap, or with a pattern pathspec cannot compile, is
skipped with one warning naming it (its files are analyzed, never silently hidden);
a normal one still applies, also where an empty run says what hid its files."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from reliability.corpus import GOOD
from vtlint.analyzer.files import MAX_GITIGNORE_BYTES, MAX_GITIGNORE_LINE, MAX_GITIGNORE_PATTERNS


def _sparse(path: Path, size: int) -> None:
    with path.open("wb") as handle:
        handle.truncate(size)


HOSTILE = {
    "ten_megabytes_on_one_line": (lambda p: p.write_text("a" * 10_000_000), "file too large"),
    "one_gigabyte_sparse": (lambda p: _sparse(p, 1024**3), "file too large"),
    "just_over_the_cap": (lambda p: p.write_text("x\n" * (MAX_GITIGNORE_BYTES // 2 + 1)), "file too large"),
    "a_long_line": (lambda p: p.write_text("ok\n" + "a" * (MAX_GITIGNORE_LINE + 1) + "\n"),
                    f"line 2 is longer than {MAX_GITIGNORE_LINE:,} characters"),
    "too_many_patterns": (lambda p: p.write_text("".join(f"p{i}/\n" for i in range(MAX_GITIGNORE_PATTERNS + 1))),
                          f"{MAX_GITIGNORE_PATTERNS + 1:,} patterns"),
    "a_bad_range": (lambda p: p.write_text("good.py\n[z-a]\n"), "invalid pattern"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_gitignore_is_skipped_with_a_warning(run_cli, tmp_path: Path, name: str) -> None:
    make, words = HOSTILE[name]
    (tmp_path / "good.py").write_bytes(GOOD)
    make(tmp_path / ".gitignore")
    started = time.monotonic()
    result = run_cli("check", ".", "--no-cache", cwd=tmp_path)
    assert time.monotonic() - started < 10
    assert result.exit_code == 1 and "VTL202" in result.stdout, result.output  # good.py is still analyzed
    [warning] = [line for line in result.stderr.splitlines() if ".gitignore" in line]
    assert warning.startswith("warning: .gitignore: skipped, its patterns are not applied: ") and words in warning


def test_a_fifo_gitignore_does_not_hang(run_cli, tmp_path: Path) -> None:
    (tmp_path / "good.py").write_bytes(GOOD)
    os.mkfifo(tmp_path / ".gitignore")
    assert run_cli("check", ".", "--no-cache", cwd=tmp_path).exit_code == 1


def test_a_normal_gitignore_still_applies_and_is_named(run_cli, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "good.py").write_bytes(GOOD)
    (tmp_path / ".gitignore").write_text("# generated\nsub/\n")
    result = run_cli("check", "sub", "--no-cache", cwd=tmp_path)
    assert result.exit_code == 2 and "sub: ignored by .gitignore (respect-gitignore = true)" in result.stderr
    result = run_cli("check", "sub/good.py", "--no-cache", cwd=tmp_path)  # named: analyzed all the same
    assert result.exit_code == 1 and "VTL202" in result.stdout
