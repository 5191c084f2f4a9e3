"""Names a package re-exports through star imports, found as a type checker finds them.

Large packages import their public names lazily: `transformers/__init__.py` and each model's
`__init__.py` install a `_LazyModule` and state their API only for type checkers, under
`if TYPE_CHECKING:` as `from .models import *` / `from .configuration_mixtral import *`, each leaf
module listing its names in `__all__`. `transformers.MixtralConfig` is then the class of
`transformers.models.mixtral.configuration_mixtral`. Following a star import reads the imported
module's `__all__` (or, without one, its public top-level names); hundreds of star-imported leaves
are each read for `__all__` alone, with Python's `ast` on that one statement, never a whole parse.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from vtlint.analyzer.files import MAX_SOURCE_BYTES
from vtlint.bounded import read_text

MAX_DEPTH = 6  # star imports followed through at most this many modules
_ALL = re.compile(r"^__all__\s*(?::[^=\n]*)?=\s*", re.MULTILINE)

ModuleFile = Callable[[str], Path | None]  # a dotted module name -> its source file, or None


@dataclass
class Exports:
    """A module's top level as its star import sees it."""

    names: dict[str, str] = field(default_factory=dict)  # name -> what it is bound to (dotted)
    stars: list[str] = field(default_factory=list)  # modules it star-imports, in order
    all: list[str] | None = None  # its `__all__`, when a literal


def binding(module: str, name: str, module_file: ModuleFile, depth: int = MAX_DEPTH) -> str | None:
    """The dotted name `module.name` is bound to through the module's star imports (`transformers`,
    `MixtralConfig` -> `transformers.models.mixtral.configuration_mixtral.MixtralConfig`), or None."""
    path = module_file(module)
    if path is None or depth <= 0:
        return None
    exports = _exports(path, module)
    if name in exports.names:
        return exports.names[name]
    if exports.all is not None and name not in exports.all:
        return None
    for star in reversed(exports.stars):  # the last import binds the name
        if not _may_export(star, name, module_file):
            continue
        found = binding(star, name, module_file, depth - 1)
        if found is not None:
            return found
    return None


def _may_export(module: str, name: str, module_file: ModuleFile) -> bool:
    """Whether `from module import *` can bind `name`, judged on its `__all__` alone where it has one."""
    path = module_file(module)
    if path is None or name.startswith("_"):
        return False
    declared = declared_all(path)
    return declared is None or name in declared


def declared_all(path: Path) -> frozenset[str] | None:
    """A module's literal `__all__`, read without parsing the rest of the file."""
    return _declared_all(str(path), _mtime(path))


@functools.lru_cache(maxsize=8192)
def _declared_all(path: str, mtime: int) -> frozenset[str] | None:
    text = _read(Path(path))
    match = _ALL.search(text) if text is not None else None
    if match is None or text is None:
        return None
    try:
        value = ast.literal_eval(_bracketed(text, match.end()))
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return frozenset(v for v in value if isinstance(v, str)) if isinstance(value, (list, tuple)) else None


def _bracketed(text: str, start: int) -> str:
    """The bracketed literal starting at `start` (strings holding brackets are rare in `__all__`)."""
    if start >= len(text) or text[start] not in "[(":
        return ""
    depth = 0
    for end in range(start, len(text)):
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(text[end], 0)
        if depth == 0:
            return text[start:end + 1]
    return ""


def _exports(path: Path, module: str) -> Exports:
    return _exports_of(str(path), _mtime(path), module)


@functools.lru_cache(maxsize=4096)
def _exports_of(path: str, mtime: int, module: str) -> Exports:
    text = _read(Path(path))
    try:
        tree = ast.parse(text or "")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return Exports()
    package = module if Path(path).name == "__init__.py" else module.rpartition(".")[0]
    exports = Exports(all=_literal_all(tree))
    for node in _top_level(tree.body):
        if isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for alias in node.names:
                if alias.name == "*":
                    exports.stars.append(base)
                else:
                    exports.names[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            exports.names[node.name] = f"{module}.{node.name}"
    return exports


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The module's statements, into `if`/`try` blocks (`if TYPE_CHECKING:`), not into defs."""
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.Try)):
            yield from _top_level(node.body)
            yield from _top_level(node.orelse)
            if isinstance(node, ast.Try):
                for handler in node.handlers:
                    yield from _top_level(handler.body)


def _literal_all(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                return None
            return [v for v in value if isinstance(v, str)] if isinstance(value, (list, tuple)) else None
    return None


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
    return ".".join([*base, node.module] if node.module else base)


def _read(path: Path) -> str | None:
    try:
        return read_text(path, MAX_SOURCE_BYTES)
    except (OSError, UnicodeDecodeError):
        return None


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0
