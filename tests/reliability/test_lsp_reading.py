"""Files the language server reads on its own, read as the CLI reads them (issue 35, items 8
and 11): the pyproject.toml whose problem it shows on that file (`locate_problem`), and a file a
finding points into that has no open buffer (`convert.LinesOf`). Each is a regular file of
bounded size and TOML of bounded depth: a FIFO, a device, a sparse file past the bound or a
100,000-deep array is a problem shown or an empty file, never a hang, an unbounded read or
"Error in server"."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tests.lsp.conftest import lsp_session
from tests.reliability.test_config_values import DEEP
from vtlint.bounded import MAX_SOURCE_BYTES
from vtlint.config import MAX_CONFIG_BYTES
from vtlint.lsp import convert
from vtlint.lsp.settings import EditorSettings, resolve_config

BROKEN = "def f(x:\n    return x\n"
HANG_S = 10.0

PYPROJECTS = {
    "tool_an_integer": ("tool = 5\n", 0, "[tool] must be a table, got 5"),
    "tool_a_date_on_line_2": ("# dates\ntool = 1979-05-27\n", 1, "[tool] must be a table"),
    "deep_array": (f"[tool.vtlint]\nexclude = {DEEP}\n", 0, "arrays and tables nested 100000 deep"),
    "over_the_size_bound": (None, 0, "cannot read: file too large"),
}


@pytest.mark.parametrize("name", sorted(PYPROJECTS))
def test_the_broken_pyproject_is_located_bounded(tmp_path: Path, name: str) -> None:
    """`tool = 5` was an AttributeError, the deep array a RecursionError: the config had already
    been refused, and locating its problem read the file again, unbounded and unchecked."""
    text, line, words = PYPROJECTS[name]
    config = tmp_path / "pyproject.toml"
    if text is None:
        with config.open("wb") as sparse:
            sparse.truncate(MAX_CONFIG_BYTES + 1)
    else:
        config.write_text(text)
    resolved = resolve_config(tmp_path / "mod.py", tmp_path, EditorSettings())
    assert resolved.problem is not None and resolved.problem.path == config
    assert resolved.problem.line == line and words in resolved.problem.message, resolved.problem


@pytest.mark.asyncio
@pytest.mark.parametrize("name", ["tool_an_integer", "deep_array"])
async def test_a_broken_pyproject_is_a_diagnostic_on_it_and_the_buffer_is_linted(tmp_path: Path, name: str) -> None:
    text, line, words = PYPROJECTS[name]
    (tmp_path / "pyproject.toml").write_text(text)
    async with lsp_session(tmp_path) as s:
        uri = s.open("mod.py", BROKEN)
        [problem] = await s.wait_diagnostics(s.uri("pyproject.toml"))
        assert words in problem.message and problem.range.start.line == line, problem
        assert [d.code for d in await s.wait_diagnostics(uri)] == ["VTL001"]  # linted with the defaults


def _lines_within(lines_of: convert.LinesOf, path: str, fifo: Path | None = None) -> list[str]:
    """The lines, read in a thread: one still blocked after HANG_S fails the test (its FIFO is
    then opened for writing, so that the reader returns)."""
    found: list[list[str]] = []
    reader = threading.Thread(target=lambda: found.append(lines_of(path)), daemon=True)
    reader.start()
    reader.join(HANG_S)
    hung = reader.is_alive()
    if hung and fifo is not None:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert not hung, f"reading {path} did not return within {HANG_S} s"
    return found[0]


def test_a_fifo_a_finding_points_into_is_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    assert _lines_within(convert.LinesOf(tmp_path, {}), "pipe.py", tmp_path / "pipe.py") == []


def test_a_file_past_the_source_bound_or_a_device_is_not_read(tmp_path: Path) -> None:
    with (tmp_path / "huge.py").open("wb") as sparse:
        sparse.truncate(MAX_SOURCE_BYTES + 1)
    lines_of = convert.LinesOf(tmp_path, {})
    assert _lines_within(lines_of, "huge.py") == []
    if Path("/dev/zero").exists():
        (tmp_path / "zero.py").symlink_to("/dev/zero")
        assert _lines_within(lines_of, "zero.py") == []
    (tmp_path / "ok.py").write_text("x = 1\ny = 2\n")
    assert _lines_within(lines_of, "ok.py") == ["x = 1\n", "y = 2\n"]
