"""Data files the calling script reads, modelled natively for the eager run: `os.path.isdir("tiny")`,
`open(path).read()`, `json.load(f)`. Reading a file runs no code, so the eager run answers as the
program will (transformers' `AutoConfig.from_pretrained("./tiny")` takes the local-folder path and
parses `tiny/config.json`), for paths under the project root only: the runtime runs the script
there, and what lies elsewhere (a Hub cache, the user's home) stays unknown. Each path asked about
is recorded (`Project.data_paths`), so a cached walk is redone when the file appears or changes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value
from vtlint.bounded import read_text

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker

MAX_BYTES = 200_000  # a configuration, not a dataset
_QUERIES = {"os.path.isdir": os.path.isdir, "os.path.isfile": os.path.isfile, "os.path.exists": os.path.exists}
# pure functions of their strings: computed as the program computes them
_STRINGS = {f"os.path.{name}": getattr(os.path, name)
            for name in ("join", "basename", "dirname", "splitext", "split", "normpath")}
FUNCTIONS = frozenset({*_QUERIES, *_STRINGS})
_READ_MODES = frozenset({"r", "rt", "tr"})


class FileVariable(Value):
    """A text file the script opened for reading: its contents (`value`: the text, as the program reads it)."""

    tracks = (V.FILE,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        return Value(V.LIB, ref=f"io.TextIOWrapper.{name}", bound_self=self)

    def call_method(self, tx: Walker, method: str, args: list[Value], kwargs: dict[str, Value], act: Act,
                    node: cst.Call) -> Value | None:
        if method == "read" and not args and not kwargs:
            return V.const(self.value)
        if method in ("__enter__", "close", "__exit__"):
            return self if method == "__enter__" else V.const(None)
        return V.unknown()


def call(tx: Walker, name: str, args: list[Value]) -> Value:
    """`os.path.isdir(p)`, `os.path.join(a, b)`: the answer, where the strings are known (and, for a
    query, the path is under the project root); unknown otherwise."""
    strings = [a.value for a in args if a.kind == V.CONST and a.known and isinstance(a.value, str)]
    if len(strings) != len(args) or not args:
        return V.unknown()
    if name in _STRINGS:
        result = _STRINGS[name](*strings)
        return Value(V.TUPLE, items=[V.const(r) for r in result]) if isinstance(result, tuple) else V.const(result)
    path = _under_root(tx, strings[0]) if len(strings) == 1 else None
    return V.const(_QUERIES[name](path)) if path is not None else V.unknown()


def opened(tx: Walker, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """`open(path)` / `open(path, "r", encoding="utf-8")` run eagerly: the file's text, when it is a
    readable text file under the project root of at most MAX_BYTES; unknown otherwise."""
    path_value = args[0] if args else kwargs.get("file")
    mode = args[1] if len(args) > 1 else kwargs.get("mode", V.const("r"))
    if path_value is None or not (path_value.known and isinstance(path_value.value, str)) \
            or not (mode.known and mode.value in _READ_MODES):
        return V.unknown()
    path = _under_root(tx, path_value.value)
    if path is None:
        return V.unknown()
    try:  # a regular file only (a FIFO is opened without waiting, then refused), read bounded
        return Value(V.FILE, value=read_text(path, MAX_BYTES))
    except (OSError, UnicodeDecodeError):
        return V.unknown()


def text_of(value: Value) -> str | None:
    """What a parser reads from the value: a string's text, or an opened file's."""
    known = value.kind in (V.CONST, V.FILE) and value.known and isinstance(value.value, str)
    return value.value if known else None


def _under_root(tx: Walker, given: str) -> Path | None:
    """The path the program means (relative paths from the project root, where it runs), if it lies
    under the root; recorded so that a change to it redoes the walk."""
    root = tx.project.root
    if root is None or "\0" in given:
        return None
    path = Path(os.path.normpath(root / given))
    try:
        inside = path.is_relative_to(root) and path.resolve().is_relative_to(root)  # no link leads out
    except (OSError, RuntimeError):  # a symlink loop
        return None
    if not inside:
        return None
    tx.project.data_paths.add(str(path))
    return path
