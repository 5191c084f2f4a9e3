"""A module parsed as its top-level statements, each with its own positions.

LibCST's parse and PositionProvider are the two costs of a lint that grow with
the file. With a `ChunkCache` (the language server keeps one) both run per
top-level statement (with the comment lines before it), positions relative to
the statement's first line, and a statement whose text did not change since the
last lint is neither parsed nor positioned again: a line inserted above it only
moves its offset. Without one, a single whole parse is cheaper than its pieces.

Statements are cut where Python's own tree says they start and end; any chunk
LibCST disagrees with sends the module back to one whole parse."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import CodePosition, CodeRange, MetadataWrapper, PositionProvider

from vtlint.analyzer.budget import checkpoint

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


@dataclass(eq=False)
class Chunk:
    """Top-level statements parsed from one piece of text (identity matters: it keys
    the positions of its nodes); `ranges` count lines from the piece's first line."""

    module: cst.Module  # the piece as LibCST parsed it alone (newline and indent defaults)
    statements: tuple[cst.BaseStatement, ...] = ()
    footer: tuple[cst.EmptyLine, ...] = ()  # comment lines after the last statement of the file
    ranges: dict[cst.CSTNode, CodeRange] = field(default_factory=dict)
    _owned: dict[cst.CSTNode, tuple[CodeRange, object]] | None = None
    # what `owned` pairs each range with: not the chunk itself, which would make every chunk a
    # reference cycle that only the cyclic collector frees (a long pause in the language server)
    key: object = field(default_factory=object)

    @classmethod
    def of(cls, module: cst.Module) -> Chunk:
        ranges = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        return cls(module, tuple(module.body), ranges=dict(ranges))

    def owned(self) -> dict[cst.CSTNode, tuple[CodeRange, object]]:
        """Each range with this chunk's key, to find the chunk's offset from a node (built once)."""
        if self._owned is None:
            self._owned = {node: (where, self.key) for node, where in self.ranges.items()}
        return self._owned


class Positions:
    """Node -> CodeRange over a module assembled from chunks: each chunk's relative
    ranges moved down by where the chunk starts in this version of the text. A module
    parsed whole is one chunk at offset 0, looked up as it is (no copy of its ranges)."""

    def __init__(self, placed: list[tuple[Chunk, int]]) -> None:
        self._unplaced: cst.Module | None = None  # a whole module not positioned yet
        self._whole: dict[cst.CSTNode, CodeRange] | None = None
        self._offsets: dict[object, int] = {}  # Chunk.key -> the line the chunk starts at
        self._ranges: dict[cst.CSTNode, tuple[CodeRange, object]] = {}
        if len(placed) == 1 and placed[0][1] == 0:
            self._whole = placed[0][0].ranges
            return
        for chunk, offset in placed:
            self._offsets[chunk.key] = offset
            self._ranges.update(chunk.owned())

    @classmethod
    def of(cls, module: cst.Module) -> Positions:
        """A whole module's, resolved on the first lookup: PositionProvider costs more than
        the parse, and a module read only for its classes and defaults never needs it."""
        positions = cls([])
        positions._unplaced = module
        return positions

    def get(self, node: cst.CSTNode) -> CodeRange | None:
        if self._unplaced is not None:
            self._whole, self._unplaced = Chunk.of(self._unplaced).ranges, None
        if self._whole is not None:
            return self._whole.get(node)
        found = self._ranges.get(node)
        if found is None:
            return None
        rel, key = found
        offset = self._offsets[key]
        if not offset:
            return rel
        return CodeRange(CodePosition(rel.start.line + offset, rel.start.column),
                         CodePosition(rel.end.line + offset, rel.end.column))


class ChunkCache:
    """The chunks of each file's last parse, by their text: the next version of the file
    reuses the ones whose text it still has. One version per file is kept, so memory
    stays that of the files being edited."""

    def __init__(self) -> None:
        self._last: dict[str, dict[str, Chunk]] = {}

    def get(self, display: str, text: str) -> Chunk | None:
        return self._last.get(display, {}).get(text)

    def keep(self, display: str, chunks: dict[str, Chunk]) -> None:
        self._last[display] = chunks

    def forget(self, display: str) -> None:
        self._last.pop(display, None)


def _parse_chunk(text: str, expected: int) -> Chunk | None:
    """One piece: its comment header folded into its first statement's leading lines
    (so the assembled module prints the same text). None when LibCST does not see
    the `expected` number of Python statements in it."""
    module = cst.parse_module(text)
    seen = sum(len(s.body) if isinstance(s, cst.SimpleStatementLine) else 1 for s in module.body)
    if seen != expected:
        return None
    chunk = Chunk.of(module)
    statements = list(module.body)
    if statements and module.header:
        first = statements[0]
        statements[0] = first.with_changes(leading_lines=(*module.header, *first.leading_lines))
        chunk.ranges[statements[0]] = chunk.ranges[first]
        chunk.statements = tuple(statements)
    chunk.footer = tuple(module.footer) if statements else (*module.header, *module.footer)
    return chunk


def _pieces(text: str, tree: ast.Module) -> list[tuple[str, int, int]] | None:
    """(text, first line - 1, statement count) per top-level statement with the lines
    before it; statements sharing a line share a piece. None when lines do not split cleanly."""
    lines = _LINE.findall(text)
    pieces: list[tuple[str, int, int]] = []
    start = 0  # lines consumed so far
    for stmt in tree.body:
        first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        end = stmt.end_lineno or stmt.lineno
        if pieces and first <= start:  # `a = 1; b = 2`: same line as the previous statement
            body, offset, count = pieces.pop()
            pieces.append((body + "".join(lines[start:end]), offset, count + 1))
        else:
            pieces.append(("".join(lines[start:end]), start, 1))
        start = max(start, end)
    if start < len(lines):
        pieces.append(("".join(lines[start:]), start, 0))
    return pieces if "".join(p[0] for p in pieces) == text else None


def parse_chunked(text: str, tree: ast.Module | None, display: str,
                  cache: ChunkCache | None = None) -> tuple[cst.Module, Positions]:
    """The module and its positions: from chunks when Python's tree is at hand and
    every piece parses alone, else from one whole parse. Raises what
    `cst.parse_module` raises."""
    placed = _chunked(text, tree, display, cache) if cache is not None and tree is not None and tree.body else None
    indents = {c.module.default_indent for c, _ in placed or () if _indents(c)}
    if placed is None or len(indents) > 1:
        # without a cache one parse costs less than its pieces; and a block's indent is stored
        # relative to its module's, so pieces indented differently print right only as one module
        module = cst.parse_module(text)
        return module, Positions.of(module)
    first, last = placed[0][0].module, placed[-1][0].module
    indent = indents.pop() if indents else first.default_indent
    module = cst.Module(
        body=[s for chunk, _ in placed for s in chunk.statements],
        footer=[line for chunk, _ in placed for line in chunk.footer],
        encoding=first.encoding, default_indent=indent, default_newline=first.default_newline,
        has_trailing_newline=last.has_trailing_newline)
    return module, Positions(placed)


def _indents(chunk: Chunk) -> bool:
    return any(isinstance(getattr(s, "body", None), cst.IndentedBlock) for s in chunk.statements)


def _chunked(text: str, tree: ast.Module, display: str, cache: ChunkCache) -> list[tuple[Chunk, int]] | None:
    pieces = _pieces(text, tree)
    if pieces is None:
        return None
    placed: list[tuple[Chunk, int]] = []
    kept: dict[str, Chunk] = {}
    used: set[int] = set()
    for piece, offset, count in pieces:
        checkpoint()
        cached = cache.get(display, piece)
        # the same text twice in a file gets its own nodes: a node has one position
        chunk = cached if cached is not None and id(cached) not in used else None
        if chunk is None:
            try:
                chunk = _parse_chunk(piece, count)
            except cst.ParserSyntaxError:
                return None
            if chunk is None:
                return None
        kept.setdefault(piece, chunk)
        used.add(id(chunk))
        placed.append((chunk, offset))
    cache.keep(display, kept)
    return placed
