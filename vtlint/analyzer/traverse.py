"""A read-only walk over a LibCST tree, in the order LibCST's own visitors see it.

`CSTNode.visit` rebuilds every node it passes through (it serves transformers
too), which makes a read-only pass cost more than the parse. The analyzer's
visitors only read, so they are walked here: `visit_<Type>(node)` before the
children (returning False skips them) and `leave_<Type>(node)` after, over the
fields that can hold code; whitespace, commas and parentheses are never entered."""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Callable
from typing import Any

import libcst as cst

from vtlint.analyzer.budget import checkpoint

# Fields that only ever hold formatting: no statement or expression below them.
_FORMATTING = frozenset({
    "lpar", "rpar", "comma", "semicolon", "colon", "equal", "star", "dot", "leading_lines",
    "lines_after_decorators", "header", "footer", "newline", "trailing_whitespace", "lbracket", "rbracket",
    "lbrace", "rbrace", "whitespace_before_colon", "whitespace_after_colon", "asynchronous", "operator",
    "comparator_operator", "walrus", "asterisk",
})

_fields: dict[type[cst.CSTNode], tuple[str, ...]] = {}
_statements: dict[type[cst.CSTNode], bool] = {}
_methods: dict[tuple[type[Any], type[cst.CSTNode]], tuple[Callable[..., Any] | None, Callable[..., Any] | None]] = {}


def _child_fields(kind: type[cst.CSTNode]) -> tuple[str, ...]:
    """The fields that can hold code, in the order LibCST's `_visit_and_replace_children`
    reads them (source order: a decorator before its function, `key=` before the value)."""
    names = _fields.get(kind)
    if names is None:
        declared = [f.name for f in dataclasses.fields(kind)
                    if not f.name.startswith("whitespace") and f.name not in _FORMATTING]
        try:
            source = inspect.getsource(kind._visit_and_replace_children)
        except (OSError, TypeError):
            source = ""
        read = list(dict.fromkeys(re.findall(r'visit_\w+\(\s*self,\s*"(\w+)"', source)))
        ordered = [n for n in read if n in declared] + [n for n in declared if n not in read]
        names = _fields[kind] = tuple(ordered)
    return names


def _hooks(visitor: object, kind: type[cst.CSTNode]) -> tuple[Callable[..., Any] | None, Callable[..., Any] | None]:
    key = (type(visitor), kind)
    found = _methods.get(key)
    if found is None:
        name = kind.__name__
        found = _methods[key] = (getattr(type(visitor), f"visit_{name}", None),
                                 getattr(type(visitor), f"leave_{name}", None))
    return found


def visit(node: cst.CSTNode, visitor: object) -> None:
    """Call the visitor's `visit_<Type>`/`leave_<Type>` methods on `node` and below
    (checking the file's time budget at every statement)."""
    kind = type(node)
    statement = _statements.get(kind)
    if statement is None:
        statement = _statements[kind] = issubclass(kind, (cst.BaseStatement, cst.BaseSmallStatement))
    if statement:
        checkpoint()
    enter, leave = _hooks(visitor, kind)
    if enter is None or enter(visitor, node) is not False:
        for name in _child_fields(kind):
            child = getattr(node, name)
            if isinstance(child, cst.CSTNode):
                visit(child, visitor)
            elif isinstance(child, (tuple, list)):  # LibCST's sequences of nodes
                for item in child:
                    if isinstance(item, cst.CSTNode):
                        visit(item, visitor)
    if leave is not None:
        leave(visitor, node)
