"""The language server's module summary and entry scan after an edit: reusing the
statements an edit did not touch gives exactly the summary and the facts of the whole
new text, lines included."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import libcst as cst

from tests.golden_breaks.golden import programs
from vtlint.analyzer import rescan
from vtlint.analyzer.chunks import ChunkCache, parse_chunked, python_parse
from vtlint.analyzer.entries import ModuleFacts, scan
from vtlint.analyzer.index import parsed_module
from vtlint.analyzer.rescan import ScanMemo, scan_reusing
from vtlint.analyzer.summary import summarize

ROOT = Path(__file__).resolve().parents[2]
EDITS = ["# a comment\n", "model = Net()\n", "compiled = torch.compile(model)\n", "step = torch.compile(f)\n",
         "x = step(torch.ones(3), 4)\n", "cfg.scale = 5\n", "import torch as T\n", "def f(x, n):\n    return x * n\n",
         "for lr in [0.1, 0.2]:\n    step(x, lr)\n", "\n"]


def _warm(text: str, cache: ChunkCache, memo: ScanMemo) -> ModuleFacts:
    pieces = python_parse(text, "m.py", cache, ast.parse).pieces
    module, positions = parse_chunked(text, pieces, "m.py", cache)
    summary = summarize(module, "m.py", text, positions.memo)
    cold = summarize(cst.parse_module(text), "m.py", text)
    assert summary == cold, text
    for table in ("imports", "functions", "classes", "globals"):  # in the same order too
        assert list(getattr(summary, table)) == list(getattr(cold, table)), table
    return scan_reusing(parsed_module(summary, text, module, positions), True, memo)


def _cold(text: str) -> ModuleFacts:
    module = cst.parse_module(text)
    return scan(parsed_module(summarize(module, "m.py", text), text, module), with_entries=True)


def test_a_rescan_through_edits_is_a_whole_scan(monkeypatch) -> None:
    scanned: list[cst.CSTNode] = []
    real = rescan.visit
    monkeypatch.setattr(rescan, "visit", lambda node, visitor: (scanned.append(node), real(node, visitor)))
    rng = random.Random(3)
    sources = [*list(programs().values())[:20], (ROOT / "examples" / "train.py").read_text(encoding="utf-8")]
    reused = 0
    for source in sources:
        cache, memo = ChunkCache(), ScanMemo()
        lines = source.splitlines(keepends=True)
        _warm(source, cache, memo)
        for _ in range(12):
            at = rng.randrange(len(lines) + 1)
            edited = list(lines)
            if rng.random() < 0.7 or at == len(lines):
                edited[at:at] = [rng.choice(EDITS)]
            else:
                del edited[at]
            text = "".join(edited)
            try:
                compile(text, "m.py", "exec", flags=ast.PyCF_ONLY_AST)
            except SyntaxError:
                continue  # an edit inside a block that breaks it: the analyzer stops before the scan
            scanned.clear()
            warm = _warm(text, cache, memo)
            assert warm == _cold(text), text
            reused += len(memo.shares) - len(scanned)
            lines = edited
    assert reused > 300


def test_only_the_edited_statement_is_scanned_again(monkeypatch) -> None:
    text = "import torch\n\n" + "".join(f"@torch.compile\ndef f{i}(x):\n    return x + {i}\n\n" for i in range(10))
    text += "".join(f"f{i}(torch.ones(2))\n" for i in range(10))
    cache, memo = ChunkCache(), ScanMemo()
    _warm(text, cache, memo)
    scanned: list[cst.CSTNode] = []
    real = rescan.visit
    monkeypatch.setattr(rescan, "visit", lambda node, visitor: (scanned.append(node), real(node, visitor)))
    edited = text.replace("x + 4\n", "x + 40\n").replace("import torch\n", "import torch\n# moved\n")
    facts = _warm(edited, cache, memo)
    assert facts == _cold(edited)
    assert len(scanned) == 2  # f4 and the import its comment joined; the other 20 statements are reused
    assert [e.line for e in facts.entries][:2] == [5, 9]  # the reused ones moved down a line (their `def`)
