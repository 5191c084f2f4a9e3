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
from vtlint.analyzer.chunks import ChunkCache, Positions, parse_chunked, python_parse

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


def _chunked(text: str, display: str, cache: ChunkCache | None) -> tuple[cst.Module, Positions]:
    """As the analyzer parses an editor's buffer: Python's pieces (kept warm too), then LibCST's."""
    pieces = python_parse(text, display, cache, ast.parse).pieces if cache is not None else None
    return parse_chunked(text, pieces, display, cache)


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
    module, positions = _chunked(text, "m.py", cache)
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
    before, _ = _chunked(text, "m.py", cache)
    edited = text.replace("return x + 7\n", "return x + 70\n").replace("import torch\n", "import torch\n# moved\n")
    after = _assert_same_as_whole_parse(edited, cache)
    kept = [a is b for a, b in zip(before.body, after.body, strict=True)]
    # the comment joins f0's chunk (the lines before a statement are its own), and f7 changed:
    # every other statement is the very same node, parsed once
    assert [i for i, same in enumerate(kept) if not same] == [1, 8]


def test_the_same_statement_twice_gets_its_own_nodes() -> None:
    text = "x = 1\nx = 1\n"
    cache = ChunkCache()
    _chunked(text, "m.py", cache)
    module, positions = _chunked(text, "m.py", cache)
    first, second = module.body
    assert first is not second
    assert (positions.get(first).start.line, positions.get(second).start.line) == (1, 2)


def test_the_cache_keeps_the_last_version_of_each_file_only() -> None:
    cache = ChunkCache()
    first, second = "a = 1\nb = 2\n", "a = 1\nc = 3\n"
    _chunked(first, "m.py", cache)
    _chunked(first, "other.py", cache)
    _chunked(second, "m.py", cache)
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


def _cold(text: str) -> list[tuple[str, int, int, int]] | SyntaxError:
    try:
        pieces = python_parse(text, "m.py", ChunkCache(), ast.parse).pieces
    except SyntaxError as err:
        return err
    return [(p.text, p.offset, p.size, p.count) for p in pieces or ()]


EDITS = ["# a comment\n", "    x = 1\n", "@decorator\n", "x = (\n", ")\n", '"""\n', "def g():\n", "\n",
         "else:\n", "y = 2; z = 3\n", "    return x\n", "class K:\n", "x = 1 + \\\n"]


def test_pythons_pieces_through_edits_are_a_cold_parses_and_so_is_its_verdict() -> None:
    """Insertions, deletions and replacements of lines, many of them breaking the syntax or
    taking the next statement in (a decorator, an open bracket or string, an indented line):
    the warm pieces are exactly the cold ones, and a text the whole parse rejects is rejected."""
    import random

    rng = random.Random(7)
    sources = [*TRICKY.values(), *list(programs().values())[:12]]
    checked = rejected = 0
    for source in sources:
        cache = ChunkCache()
        lines = source.splitlines(keepends=True)
        for _ in range(25):
            at = rng.randrange(len(lines) + 1)
            kind = rng.choice(["insert", "delete", "replace"])
            edited = list(lines)
            if kind == "insert":
                edited[at:at] = [rng.choice(EDITS)]
            elif kind == "delete" and at < len(lines):
                del edited[at:at + rng.randint(1, 3)]
            elif at < len(lines):
                edited[at] = rng.choice(EDITS)
            text = "".join(edited)
            cold = _cold(text)
            try:
                warm = python_parse(text, "m.py", cache, ast.parse).pieces
            except SyntaxError:
                assert isinstance(cold, SyntaxError), text
                rejected += 1
                continue
            assert not isinstance(cold, SyntaxError), text
            assert [(p.text, p.offset, p.size, p.count) for p in warm or ()] == cold, text
            checked += 1
            lines = edited  # the next edit starts from this version, as in an editor
    assert checked > 100 and rejected > 20


def test_an_edit_parses_again_only_the_statements_around_it() -> None:
    text = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(40))
    cache = ChunkCache()
    parsed: list[str] = []

    def parse(code: str) -> ast.Module:
        parsed.append(code)
        return ast.parse(code)

    python_parse(text, "m.py", cache, parse)
    python_parse(text.replace("x + 20\n", "x + 200\n"), "m.py", cache, parse)
    assert parsed[0] == text and parsed[1].count("def ") == 3  # f19, f20 and f21
