"""The analyzer's read-only walk visits the nodes LibCST's visitors visit, in the
same order (formatting aside), and honours a `visit_` that returns False."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import libcst as cst
import pytest

from tests.golden_breaks.golden import programs
from vtlint.analyzer.traverse import visit

ROOT = Path(__file__).resolve().parents[2]
FORMATTING = (cst.BaseParenthesizableWhitespace, cst.Comma, cst.LeftParen, cst.RightParen, cst.Newline,
              cst.EmptyLine, cst.TrailingWhitespace, cst.Comment, cst.LeftSquareBracket, cst.RightSquareBracket,
              cst.LeftCurlyBrace, cst.RightCurlyBrace, cst.Semicolon, cst.Colon, cst.AssignEqual, cst.Dot,
              cst.ImportStar, cst.Asynchronous, cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp,
              cst.BaseUnaryOp, cst.BaseAugOp)
NODE_TYPES = [t for t in vars(cst).values() if isinstance(t, type) and issubclass(t, cst.CSTNode)]


class LibCSTOrder(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, int]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if not isinstance(node, FORMATTING):
            self.seen.append(("visit", id(node)))
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if not isinstance(original_node, FORMATTING):
            self.seen.append(("leave", id(original_node)))


class Recorder:
    """A `visit_<Type>`/`leave_<Type>` pair for every node type LibCST has."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int]] = []


def _hook(step: str) -> Any:
    def record(self: Recorder, node: cst.CSTNode) -> None:
        if not isinstance(node, FORMATTING):
            self.seen.append((step, id(node)))
    return record


for _type in NODE_TYPES:
    setattr(Recorder, f"visit_{_type.__name__}", _hook("visit"))
    setattr(Recorder, f"leave_{_type.__name__}", _hook("leave"))

SOURCES = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
           for p in [*sorted((ROOT / "vtlint").rglob("*.py"))[:60], *sorted((ROOT / "examples").glob("*.py"))]}
SOURCES.update({f"golden:{name}": text for name, text in programs().items()})
SOURCES["syntax"] = ("@dec(a, key=1)\nasync def f(x: int = 1, *args, k=2, **kw) -> int:\n"
                     "    try:\n        y = [i async for i in x if i]\n    except (E, F) as e:\n        raise X from e\n"
                     "    finally:\n        pass\n    match x:\n        case {'a': 1, **rest} if rest:\n            pass\n"
                     "        case [1, *others] | C(a=1) as z:\n            pass\n"
                     "    return lambda q=1, *, r: (q if r else {k: v for k, v in x.items()})\n"
                     "class C(B, metaclass=M):\n    x: int = 1\n    del x\n    global g\n"
                     "with a as b, c:\n    print(f'{x!r:>{w}}', *a, **k)\n")


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_same_nodes_in_the_same_order_as_libcst(name: str) -> None:
    module = cst.parse_module(SOURCES[name])
    theirs, mine = LibCSTOrder(), Recorder()
    module.visit(theirs)
    visit(module, mine)
    assert mine.seen == theirs.seen


def test_a_visit_returning_false_skips_the_children_but_still_leaves() -> None:
    class Calls:
        def __init__(self) -> None:
            self.names: list[str] = []
            self.left: list[str] = []

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node.name.value != "skipped"

        def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
            self.left.append(original_node.name.value)

        def visit_Call(self, node: cst.Call) -> None:
            self.names.append(cst.ensure_type(node.func, cst.Name).value)

    calls = Calls()
    visit(cst.parse_module("def skipped():\n    a()\n\ndef kept():\n    b()\n"), calls)
    assert calls.names == ["b"]
    assert calls.left == ["skipped", "kept"]
