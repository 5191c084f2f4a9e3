"""Bounded reading: every file vtlint reads on its own behalf (sources, .gitignore,
config, trace_rules snapshots, traces, caches, SARIF, baselines, saved facts) is
opened without waiting (a FIFO never blocks the run), must be a regular file (not
a device, FIFO or socket, also behind a symlink), is checked for size before it is
read, and JSON and TOML are parsed with a bounded nesting depth (both parsers
recurse: deep input is a RecursionError, or worse in a thread with a small stack).
Every failure is an OSError (naming the file) or a ValueError (the caller names it):
one clear error, never a hang, an unbounded read or a traceback."""

from __future__ import annotations

import errno
import io
import json
import os
import re
import stat
import sys
from itertools import accumulate
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

MiB = 1024 * 1024
# a Python source (the analyzer's, and a file a trace or a finding names): generated modules reach
# ~10 MB, deep nesting tests ~50 MB; a GB is an attack
MAX_SOURCE_BYTES = 64 * MiB
MAX_JSON_DEPTH = 100  # SARIF and facts nest about 12 deep; the structured trace less
MAX_TOML_DEPTH = 100  # a pyproject.toml nests a handful of tables and arrays


class NotRegularFile(OSError):
    """A device, FIFO, socket or folder where vtlint expects a file."""


class FileTooLarge(OSError):
    """A file over the size vtlint reads."""


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _open_regular(path: Path, limit: int) -> tuple[int, int]:
    """An fd on `path` and its size; OSError (with a readable strerror) when it is not
    a regular file of at most `limit` bytes. O_NONBLOCK: opening a FIFO never waits."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(errno.EINVAL, f"not a regular file ({kind_of(info.st_mode)})", str(path))
        if info.st_size > limit:
            raise FileTooLarge(errno.EFBIG, f"file too large ({_size(info.st_size)}; vtlint reads at most "
                                            f"{_size(limit)})", str(path))
    except BaseException:
        os.close(fd)
        raise
    return fd, info.st_size


def _size(n: int) -> str:
    return f"{n / MiB:,.0f} MiB" if n >= MiB else f"{n:,} bytes"


def read_bytes(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them (a file
    growing while read is cut at the limit, never read without end)."""
    fd, _ = _open_regular(path, limit)
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(errno.EFBIG, f"file too large (grew past {_size(limit)} while read)", str(path))
    return data


def read_text(path: Path, limit: int, errors: str = "strict") -> str:
    return read_bytes(path, limit).decode("utf-8", errors)


def read_lines(path: Path, limit: int, max_line: int) -> list[str]:
    """The lines of a regular text file of at most `limit` bytes, streamed, each line
    of at most `max_line` characters (a longer one is a FileTooLarge naming the line)."""
    lines: list[str] = []
    with open_text(path, limit) as handle:
        for number, line in enumerate(iter(lambda: handle.readline(max_line + 1), ""), 1):
            if len(line.rstrip("\r\n")) > max_line:
                raise FileTooLarge(errno.EFBIG, f"line {number} is longer than {max_line:,} characters", str(path))
            lines.append(line.rstrip("\r\n"))
    return lines


def open_text(path: Path, limit: int) -> io.TextIOWrapper:
    """A text stream on a regular file of at most `limit` bytes, for files read line by
    line (a trace); read lines with `readline(n)` to bound each one too."""
    fd, _ = _open_regular(path, limit)
    return io.TextIOWrapper(os.fdopen(fd, "rb"), encoding="utf-8", errors="replace", newline="\n")


class TooDeep(ValueError):
    """JSON nested deeper than vtlint parses."""


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
# TOML's four kinds of string (the multi-line ones first) and its comments
_TOML_SKIPPED = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*',
                           re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str, skipped: re.Pattern[str] = _STRING) -> int:
    """How deep `text`'s arrays and objects nest (brackets inside strings do not count)."""
    brackets = _NOT_BRACKET.sub("", skipped.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def loads(text: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """`json.loads` that refuses input nested deeper than `max_depth` (a ValueError,
    as every other malformed JSON is)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if text.count("[") + text.count("{") > max_depth:  # only then can it nest too deep
        depth = json_depth(text)
        if depth > max_depth:
            raise TooDeep(f"JSON nested {depth} deep (vtlint reads at most {max_depth})")
    return json.loads(text)


def read_toml(path: Path, limit: int, max_depth: int = MAX_TOML_DEPTH) -> dict[str, Any]:
    """The TOML document in the regular file at `path`: an OSError when it cannot be
    read, a ValueError when it is not UTF-8, not TOML or nested deeper than `max_depth`
    (tomllib recurses once per level)."""
    try:
        text = read_bytes(path, limit).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})") from None
    return toml_loads(text, max_depth)


def toml_loads(text: str, max_depth: int = MAX_TOML_DEPTH) -> dict[str, Any]:
    """`tomllib.loads` that refuses input nested deeper than `max_depth`; a ValueError for either."""
    if text.count("[") + text.count("{") > max_depth:
        depth = json_depth(text, _TOML_SKIPPED)
        if depth > max_depth:
            raise TooDeep(f"arrays and tables nested {depth} deep (vtlint reads at most {max_depth})")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"invalid TOML: {exc}") from None
