"""The functions a Python source file defines, with their qualified names and lines, read bounded
(the file is named by a trace or a finding: untrusted input). The runtime links code objects to
them; the report finds the function that holds a line."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from vtlint.bounded import MAX_SOURCE_BYTES, read_bytes


@dataclass(frozen=True)
class FunctionDef:
    qualname: str
    name: str
    first_line: int  # first decorator's line: what co_firstlineno is on 3.11+
    def_line: int
    end_line: int
    params: tuple[str, ...] = ()  # positional parameters, in order
    varargs: str | None = None  # the name of *args
    varkw: str | None = None  # the name of **kwargs
    defaults: int = 0  # how many of `params` (the last ones) have a default: len(__defaults__)


def read_functions(path: Path, limit: int = MAX_SOURCE_BYTES) -> list[FunctionDef]:
    """Every function of the file, outer before inner (`f.<locals>.g`, `Class.method`); none when the file
    cannot be read (not a regular file of at most `limit` bytes) or parsed."""
    try:
        return _functions(ast.parse(read_bytes(path, limit), filename=str(path)))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return []


def _functions(tree: ast.Module) -> list[FunctionDef]:
    found: list[FunctionDef] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qual = f"{prefix}{child.name}"
                first = min([d.lineno for d in child.decorator_list] + [child.lineno])
                args = child.args
                found.append(FunctionDef(qual, child.name, first, child.lineno, child.end_lineno or child.lineno,
                                         tuple(a.arg for a in [*args.posonlyargs, *args.args]),
                                         args.vararg.arg if args.vararg else None,
                                         args.kwarg.arg if args.kwarg else None, len(args.defaults)))
                visit(child, f"{qual}.<locals>.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found
