"""placement.places: LibCST's PositionProvider with a lighter codegen state. Every node of a module, whitespace
and operators included, is placed exactly where LibCST places it."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from tests.analyzer.test_chunks import CORPUS, TRICKY
from vtlint.analyzer.chunks import Positions
from vtlint.analyzer.placement import code_range, places

# syntactic positions hoisted from a child (a decorated def starts at its `def`, a `with` item ends at its
# target, a lambda's parameters...), parentheses, strings over lines, an empty file
MORE = {
    "hoisted": "@d\nasync def f(a, /, b=1, *c, d: int = 2, **e) -> int:\n    with (o as p, q):\n"
               "        return lambda x, *y: (x)\n",
    "strings": 'x = """a\nb\r\nc"""\ny = f"{x!r:>{w}}" "z"\n',
    "empty": "",
    "match": "match p:\n    case [1, *r] if r:\n        pass\n    case {\"k\": v, **kw}:\n        pass\n",
}


def _libcst(module: cst.Module) -> dict[cst.CSTNode, object]:
    return dict(PositionProvider()._gen(MetadataWrapper(module, unsafe_skip_copy=True)))


@pytest.mark.parametrize("text", [*TRICKY.values(), *MORE.values()], ids=[*TRICKY, *MORE])
def test_every_node_is_placed_as_libcst_places_it(text: str) -> None:
    module = cst.parse_module(text)
    assert {node: code_range(place) for node, place in places(module).items()} == _libcst(module)


@pytest.mark.parametrize("path", CORPUS[:12], ids=lambda p: p.name)
def test_project_files_are_placed_as_libcst_places_them(path: Path) -> None:
    module = cst.parse_module(path.read_text(encoding="utf-8"))
    assert {node: code_range(place) for node, place in places(module).items()} == _libcst(module)


def test_a_range_is_made_when_asked_for() -> None:
    module = cst.parse_module("def f(x):\n    return x + 1\n")
    positions = Positions.of(module)
    ret = module.body[0].body.body[0].body[0]  # type: ignore[attr-defined]
    assert positions.get(ret) == _libcst(module)[ret]
    assert (positions.get(ret).start.line, positions.get(ret).start.column) == (2, 4)  # type: ignore[union-attr]
