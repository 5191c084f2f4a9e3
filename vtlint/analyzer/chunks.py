"""A module parsed as its top-level statements, each with its own positions.

LibCST's parse and PositionProvider are the two costs of a lint that grow with
the file. With a `ChunkCache` (the language server keeps one) both run per
top-level statement (with the comment lines before it), positions relative to
the statement's first line, and a statement whose text did not change since the
last lint is neither parsed nor positioned again: a line inserted above it only
moves its offset. Without one, a single whole parse is cheaper than its pieces.

Statements are cut where Python's own tree says they start and end; any chunk
LibCST disagrees with sends the module back to one whole parse. Python's parse is
kept warm the same way: an edit is parsed again from the statement before it to
the statement after it, which is Python's verdict on the whole text whenever that
region parses alone (it then starts and ends between top-level statements)."""

from __future__ import annotations

import ast
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import libcst as cst
from libcst.metadata import CodePosition, CodeRange

from vtlint.analyzer.budget import checkpoint
from vtlint.analyzer.placement import Place, code_range, places

_T = TypeVar("_T")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


class ChunkKey:
    """What a chunk's ranges are paired with, and what later phases derive from its nodes
    (a function's tensor uses): it lives as long as the chunk is reused, edit after edit."""

    __slots__ = ("memo",)

    def __init__(self) -> None:
        self.memo: dict[Any, Any] = {}


@dataclass(eq=False)
class Chunk:
    """Top-level statements parsed from one piece of text (identity matters: it keys
    the positions of its nodes); `ranges` count lines from the piece's first line."""

    module: cst.Module  # the piece as LibCST parsed it alone (newline and indent defaults)
    statements: tuple[cst.BaseStatement, ...] = ()
    footer: tuple[cst.EmptyLine, ...] = ()  # comment lines after the last statement of the file
    ranges: dict[cst.CSTNode, Place] = field(default_factory=dict)
    _owned: dict[cst.CSTNode, tuple[Place, ChunkKey]] | None = None
    # what `owned` pairs each range with: not the chunk itself, which would make every chunk a
    # reference cycle that only the cyclic collector frees (a long pause in the language server)
    key: ChunkKey = field(default_factory=ChunkKey)

    @classmethod
    def of(cls, module: cst.Module) -> Chunk:
        try:
            ranges = places(module)
        except KeyError as exc:
            # the position recorder (placement's, as LibCST's own) loses its bookkeeping while a RecursionError
            # of LibCST's code generation unwinds (a `1 + 1 + ...` of thousands of terms): the nesting is the error
            if _recursed(exc):
                raise RecursionError("nesting too deep to place its nodes") from None
            raise
        return cls(module, tuple(module.body), ranges=ranges)

    def owned(self) -> dict[cst.CSTNode, tuple[Place, ChunkKey]]:
        """Each range with this chunk's key, to find the chunk's offset from a node (built once)."""
        if self._owned is None:
            self._owned = {node: (where, self.key) for node, where in self.ranges.items()}
        return self._owned


class ReadingClock:
    """Seconds this process spent reading source (LibCST's parse of an installed package's module, a
    module's positions): a walk's time budget bounds its own work, not the first read of a large
    library (`transformers/modeling_utils.py`), whose cost is the file's size, whatever the code does."""

    def __init__(self) -> None:
        self.seconds = 0.0

    @contextmanager
    def timed(self) -> Iterator[None]:
        started = time.monotonic()
        try:
            yield
        finally:
            self.seconds += time.monotonic() - started


READING = ReadingClock()


def _recursed(exc: BaseException) -> bool:
    """Whether `exc` was raised while handling a RecursionError (at any remove)."""
    seen = exc.__context__
    while seen is not None and not isinstance(seen, RecursionError):
        seen = seen.__context__
    return seen is not None


class Positions:
    """Node -> CodeRange over a module assembled from chunks: each chunk's relative
    ranges moved down by where the chunk starts in this version of the text. A module
    parsed whole is one chunk at offset 0, looked up as it is (no copy of its ranges).
    A range is made when asked for: a walk asks for a few nodes of each module it enters."""

    def __init__(self, placed: list[tuple[Chunk, int]],
                 ranges: dict[cst.CSTNode, tuple[Place, ChunkKey]] | None = None) -> None:
        """`ranges`: the placed chunks' own, already in one dict (a ChunkCache's)."""
        self._unplaced: cst.Module | None = None  # a whole module not positioned yet
        self._whole: dict[cst.CSTNode, Place] | None = None
        self._offsets: dict[ChunkKey, int] = {chunk.key: offset for chunk, offset in placed}
        self._ranges = ranges if ranges is not None else {}
        if ranges is None and len(placed) == 1 and placed[0][1] == 0:
            self._whole = placed[0][0].ranges
            return
        if ranges is None:
            for chunk, _ in placed:
                self._ranges.update(chunk.owned())

    @classmethod
    def of(cls, module: cst.Module) -> Positions:
        """A whole module's, resolved on the first lookup: PositionProvider costs more than
        the parse, and a module read only for its classes and defaults never needs it."""
        positions = cls([])
        positions._unplaced = module
        return positions

    def memo(self, node: cst.CSTNode) -> dict[Any, Any] | None:
        """The memo of the chunk holding `node` (None in a module parsed whole: nothing outlives it)."""
        found = self._ranges.get(node)
        return found[1].memo if found is not None else None

    def get(self, node: cst.CSTNode) -> CodeRange | None:
        if self._unplaced is not None:
            with READING.timed():
                self._whole, self._unplaced = Chunk.of(self._unplaced).ranges, None
        if self._whole is not None:
            place = self._whole.get(node)
            return code_range(place) if place is not None else None
        found = self._ranges.get(node)
        if found is None:
            return None
        (line, column, end_line, end_column), key = found
        offset = self._offsets[key]
        return CodeRange(CodePosition(line + offset, column), CodePosition(end_line + offset, end_column))


@dataclass(frozen=True)
class Piece:
    """A top-level statement (or several sharing a line) with the lines before it, as
    Python's parse cut it: `offset` lines come before it in the file, `size` are its own."""

    text: str
    offset: int
    size: int
    count: int  # Python statements in it (0: the comment lines after the file's last statement)
    # Python's own statements of the piece, for what they hold: their line numbers are those
    # of the text parsed when the piece was cut, not the file's
    statements: tuple[ast.stmt, ...] = ()


@dataclass
class PythonParse:
    """Python's own parse of a module: its top-level statements (read for what they hold:
    from pieces, their line numbers are not the file's) and, with a ChunkCache, its pieces."""

    body: list[ast.stmt]
    pieces: list[Piece] | None


class ChunkCache:
    """The chunks of each file's last parse, by their text: the next version of the file
    reuses the ones whose text it still has; and the pieces its Python parse cut the
    last version into. One version per file is kept, so memory stays that of the files
    being edited."""

    def __init__(self) -> None:
        self._last: dict[str, dict[str, Chunk]] = {}
        self._pieces: dict[str, tuple[list[str], list[Piece]]] = {}
        self._memos: dict[tuple[str, str], Any] = {}
        self._placed: dict[str, tuple[dict[cst.CSTNode, tuple[Place, ChunkKey]], dict[ChunkKey, Chunk]]] = {}

    def get(self, display: str, text: str) -> Chunk | None:
        return self._last.get(display, {}).get(text)

    def keep(self, display: str, chunks: dict[str, Chunk]) -> None:
        self._last[display] = chunks

    def ranges(self, display: str, placed: list[tuple[Chunk, int]]) -> dict[cst.CSTNode, tuple[Place, ChunkKey]]:
        """The placed chunks' ranges in one dict, kept from the file's last parse: only the chunks
        that came or went are added or removed (the Positions of the last parse read it no more)."""
        ranges, chunks = self._placed.get(display, ({}, {}))
        now = {chunk.key: chunk for chunk, _ in placed}
        for key, chunk in chunks.items():
            if key not in now:
                for node in chunk.ranges:
                    ranges.pop(node, None)
        for key, chunk in now.items():
            if key not in chunks:
                ranges.update(chunk.owned())
        self._placed[display] = (ranges, now)
        return ranges

    def memo(self, display: str, kind: str, make: Callable[[], _T]) -> _T:
        """What a later phase keeps of the file's last analysis (its entry scan), dropped with it."""
        key = (display, kind)
        if key not in self._memos:
            self._memos[key] = make()
        return self._memos[key]

    def forget(self, display: str) -> None:
        self._last.pop(display, None)
        self._pieces.pop(display, None)
        self._placed.pop(display, None)
        self._memos = {key: memo for key, memo in self._memos.items() if key[0] != display}


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


def _pieces(lines: list[str], body: list[ast.stmt], before: int = 0) -> list[Piece] | None:
    """The pieces of `lines` (`body`: Python's statements of their text), `before` lines into the file;
    statements sharing a line share a piece. None when the lines do not split cleanly."""
    pieces: list[Piece] = []
    start = 0  # lines consumed so far
    for stmt in body:
        first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        end = stmt.end_lineno or stmt.lineno
        if pieces and first <= start:  # `a = 1; b = 2`: same line as the previous statement
            last = pieces.pop()
            size = max(start, end) - (last.offset - before)
            pieces.append(Piece(last.text + "".join(lines[start:end]), last.offset, size, last.count + 1,
                                (*last.statements, stmt)))
        else:
            pieces.append(Piece("".join(lines[start:end]), before + start, end - start, 1, (stmt,)))
        start = max(start, end)
    if start < len(lines):
        pieces.append(Piece("".join(lines[start:]), before + start, len(lines) - start, 0))
    return pieces if "".join(p.text for p in pieces) == "".join(lines) else None


def python_parse(text: str, display: str, cache: ChunkCache, parse: Callable[[str], ast.Module]) -> PythonParse:
    """Python's verdict on the file's text (raises what `parse(text)` raises) and its pieces:
    from the last version's pieces when the edit's region parses alone."""
    lines = _LINE.findall(text)
    last = cache._pieces.get(display)
    pieces = _reparsed(lines, last, parse) if last is not None else None
    if pieces is not None:
        body = [stmt for piece in pieces for stmt in piece.statements]
    else:
        body = parse(text).body
        pieces = _pieces(lines, body)
    if pieces is None:
        cache._pieces.pop(display, None)
    else:
        cache._pieces[display] = (lines, pieces)
    return PythonParse(body, pieces)


def _reparsed(lines: list[str], last: tuple[list[str], list[Piece]], parse: Callable[[str], ast.Module]
              ) -> list[Piece] | None:
    """The pieces of `lines` from those of the last version: the ones the edit did not touch
    kept (moved), the region from the piece before the edit to the piece after it parsed
    again. None when the region does not parse alone (the whole text then says why)."""
    old_lines, old = last
    prefix = next((i for i, (new, was) in enumerate(zip(lines, old_lines)) if new != was),
                  min(len(lines), len(old_lines)))  # lines the same from the top
    if prefix == len(lines) == len(old_lines):
        return old
    most = min(len(lines), len(old_lines)) - prefix
    suffix = 0
    while suffix < most and lines[-1 - suffix] == old_lines[-1 - suffix]:
        suffix += 1
    # the piece just before an edit may grow into it (an indented line added after a function's
    # last one), and the one just after may be taken into it (a decorator added above a def)
    before = [p for p in old if p.offset + p.size <= prefix][:-1]
    after = [p for p in old if p.offset >= len(old_lines) - suffix][1:]
    start = before[-1].offset + before[-1].size if before else 0
    shift = len(lines) - len(old_lines)
    stop = after[0].offset + shift if after else len(lines)
    if stop < start:
        return None
    try:
        middle = _pieces(lines[start:stop], parse("".join(lines[start:stop])).body, start)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if middle is None or (after and middle and middle[-1].count == 0):
        return None  # comment lines belong to the statement after them, not to a piece of their own
    return [*before, *middle, *(replace(p, offset=p.offset + shift) for p in after)]


def parse_chunked(text: str, pieces: list[Piece] | None, display: str,
                  cache: ChunkCache | None = None) -> tuple[cst.Module, Positions]:
    """The module and its positions: from chunks when Python's pieces are at hand and
    every piece parses alone, else from one whole parse. Raises what
    `cst.parse_module` raises."""
    placed = _chunked(pieces, display, cache) if cache is not None and pieces and any(p.count for p in pieces) else None
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
    assert cache is not None  # only a cache places chunks
    return module, Positions(placed, cache.ranges(display, placed))


def _indents(chunk: Chunk) -> bool:
    return any(isinstance(getattr(s, "body", None), cst.IndentedBlock) for s in chunk.statements)


def _chunked(pieces: list[Piece], display: str, cache: ChunkCache) -> list[tuple[Chunk, int]] | None:
    placed: list[tuple[Chunk, int]] = []
    kept: dict[str, Chunk] = {}
    used: set[int] = set()
    for each in pieces:
        checkpoint()
        piece, offset, count = each.text, each.offset, each.count
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
