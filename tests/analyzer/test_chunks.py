"""The chunked parse the language server keeps warm: the same module text and the
same node positions as one whole LibCST parse, through edits, and only the edited
statements parsed again."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from tests.golden_breaks.golden import programs
from vtlint.analyzer.chunks import ChunkCache, parse_chunked

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted((ROOT / "vtlint").rglob("*.py"))[:40] + sorted((ROOT / "examples").glob("*.py"))

TRICKY = {
    "semicolons": "import torch; import os\nx = 1; y = 2\n\ndef f(a): return a; \n",
    "comments_everywhere": "# header\n\n# attached\n@torch.compile  # why\ndef f(x):\n    return x\n    # trailing in body\n"
                           "# between\nclass C:\n    pass\n# footer\n\n",
    "crlf": "import torch\r\n\r\n@torch.compile\r\ndef f(x, n):\r\n    return x * n\r\n",
    "no_trailing_newline": "x = 1\ndef f():\n    return x",
    "duplicates": "x = 1\nx = 1\npass\npass\ndef f():\n    pass\ndef f():\n    pass\n",
    "decorated_multiline": "@decorator(\n    1,\n)\n@other\ndef f():\n    return (1 +\n            2)\n",
    "two_space_indent": "if True:\n  x = 1\nelse:\n  x = 2\ndef f():\n    return 1\n",
    "backslash": "x = 1 + \\\n    2\ny = [\n  1,\n]\n",
    "only_comments": "# just a comment\n\n# and another\n",
    "form_feed": "x = 1\n\x0c\ndef f():\n    return 1\n",
}


def _pairs(a: cst.CSTNode, b: cst.CSTNode) -> Iterator[tuple[cst.CSTNode, cst.CSTNode]]:
    """Matching nodes of two trees of the same code, but for comment lines: a whole parse
    keeps the module's first comments in its header, a chunk in the statement's leading lines."""
    yield a, b
    for x, y in zip(_code(a), _code(b), strict=True):
        yield from _pairs(x, y)


def _code(node: cst.CSTNode) -> list[cst.CSTNode]:
    return [c for c in node.children if not isinstance(c, (cst.EmptyLine, cst.BaseParenthesizableWhitespace,
                                                           cst.TrailingWhitespace, cst.Newline, cst.Comment))]


def _assert_same_as_whole_parse(text: str, cache: ChunkCache | None) -> cst.Module:
    module, positions = parse_chunked(text, ast.parse(text), "m.py", cache)
    assert module.code == text
    whole = cst.parse_module(text)
    expected = MetadataWrapper(whole, unsafe_skip_copy=True).resolve(PositionProvider)
    compared = 0
    for mine, theirs in zip(module.body, whole.body, strict=True):
        for x, y in _pairs(mine, theirs):
            assert type(x) is type(y)
            assert positions.get(x) == expected[y], (type(x).__name__, positions.get(x), expected[y])
            compared += 1
    assert compared or not whole.body
    return module


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_tricky_layouts_match_a_whole_parse(name: str) -> None:
    _assert_same_as_whole_parse(TRICKY[name], ChunkCache())


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_project_files_match_a_whole_parse(path: Path) -> None:
    _assert_same_as_whole_parse(path.read_text(encoding="utf-8"), ChunkCache())


def test_golden_programs_match_a_whole_parse_through_edits() -> None:
    cache = ChunkCache()
    for source in list(programs().values())[:30]:
        lines = source.splitlines(keepends=True)
        for at in range(0, len(lines), max(1, len(lines) // 4)):
            edited = "".join([*lines[:at], "# inserted\n", *lines[at:]])
            _assert_same_as_whole_parse(edited, cache)


def test_an_edit_reparses_only_the_statement_it_touched() -> None:
    text = "import torch\n\n" + "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(20))
    cache = ChunkCache()
    before, _ = parse_chunked(text, ast.parse(text), "m.py", cache)
    edited = text.replace("return x + 7\n", "return x + 70\n").replace("import torch\n", "import torch\n# moved\n")
    after = _assert_same_as_whole_parse(edited, cache)
    kept = [a is b for a, b in zip(before.body, after.body, strict=True)]
    # the comment joins f0's chunk (the lines before a statement are its own), and f7 changed:
    # every other statement is the very same node, parsed once
    assert [i for i, same in enumerate(kept) if not same] == [1, 8]


def test_the_same_statement_twice_gets_its_own_nodes() -> None:
    text = "x = 1\nx = 1\n"
    cache = ChunkCache()
    parse_chunked(text, ast.parse(text), "m.py", cache)
    module, positions = parse_chunked(text, ast.parse(text), "m.py", cache)
    first, second = module.body
    assert first is not second
    assert (positions.get(first).start.line, positions.get(second).start.line) == (1, 2)


def test_the_cache_keeps_the_last_version_of_each_file_only() -> None:
    cache = ChunkCache()
    first, second = "a = 1\nb = 2\n", "a = 1\nc = 3\n"
    parse_chunked(first, ast.parse(first), "m.py", cache)
    parse_chunked(first, ast.parse(first), "other.py", cache)
    parse_chunked(second, ast.parse(second), "m.py", cache)
    assert cache.get("m.py", "a = 1\n") is not None and cache.get("m.py", "c = 3\n") is not None
    assert cache.get("m.py", "b = 2\n") is None  # only in the version before
    assert cache.get("other.py", "b = 2\n") is not None
    cache.forget("other.py")
    assert cache.get("other.py", "b = 2\n") is None


def test_without_a_cache_or_a_tree_it_is_one_whole_parse() -> None:
    text = TRICKY["comments_everywhere"]
    module, positions = parse_chunked(text, None, "m.py")
    assert module.code == text
    fn = module.body[0]
    assert positions.get(fn).start.line == 5  # LibCST places a function at its `def`
