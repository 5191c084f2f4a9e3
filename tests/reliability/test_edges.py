"""The smaller items of issue 35, item 11 (the command line's and the reports'; the
language server's and the analyzer's are tested beside them): a symlink leaving the
project, a fake torch inside it, a baseline of the wrong shape, terminal escapes in
file names, secrets by the shape of their value, stdout and stderr that cannot be
written, --jobs past the cores."""

from __future__ import annotations

from pathlib import Path

from reliability.corpus import GOOD


def test_a_symlink_leaving_the_project_is_not_read(run_cli, tmp_path: Path) -> None:
    """`pw.py -> /etc/passwd` was read and reported as `../../../etc/passwd` (a syntax error in it)."""
    outside = tmp_path / "outside" / "secret.py"
    outside.parent.mkdir()
    outside.write_text("password = 'hunter2'\nthis is not python\n")
    root = tmp_path / "project"
    root.mkdir()
    (root / "good.py").write_bytes(GOOD)
    (root / "pw.py").symlink_to(outside)
    (root / "inside.py").symlink_to(root / "good.py")  # a link within the project is followed
    result = run_cli("check", ".", "--no-cache", "--format", "json", cwd=root)
    assert result.exit_code == 1
    assert "secret" not in result.stdout and "hunter2" not in result.stdout and "../" not in result.stdout
    assert "warning: pw.py: a symlink to a file outside the project, not read" in result.stderr
    assert '"files_analyzed": 1' in result.stdout  # good.py, once (inside.py is the same file)
