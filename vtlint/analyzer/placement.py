"""Where each node of a module is: LibCST's PositionProvider, with its bookkeeping made cheap.

PositionProvider places nodes by generating the module's code and noting the line and column
before and after each node. Its codegen state pays for generality on each of the ~1M nodes of a
large corpus: a generator-based context manager per syntactic position, a regex split per token,
two CodePosition objects and a CodeRange per node. The code generation is LibCST's own here (the
nodes' `_codegen_impl`); only the state it reports to is lighter, noting plain tuples, so the
ranges are LibCST's exactly (tests/analyzer/test_placement.py compares them node by node)."""

from __future__ import annotations

import re
from types import TracebackType

import libcst as cst
from libcst.metadata import CodePosition, CodeRange

_NEWLINE = re.compile(r"\r\n?|\n")  # what LibCST's position state counts as a line break

Place = tuple[int, int, int, int]  # start line, start column, end line, end column (lines 1-based, columns 0-based)


class _Placing:
    """The codegen state LibCST's nodes write to (PositionProvidingCodegenState's interface)."""

    def __init__(self, module: cst.Module) -> None:
        self.default_indent = module.default_indent
        self.default_newline = module.default_newline
        self.indent_tokens: list[str] = []
        self.tokens: list[str] = []  # the Module reads whether any was written, and drops a trailing newline
        self.line = 1
        self.column = 0
        self.starts: list[tuple[int, int]] = []
        self.places: dict[cst.CSTNode, Place] = {}

    def increase_indent(self, value: str) -> None:
        self.indent_tokens.append(value)

    def decrease_indent(self) -> None:
        self.indent_tokens.pop()

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        if "\n" in value or "\r" in value:
            segments = _NEWLINE.split(value)
            self.line += len(segments) - 1
            self.column = len(segments[-1])
        else:
            self.column += len(value)

    def pop_trailing_newline(self) -> None:
        if self.tokens:
            self.tokens.pop()  # the text only: LibCST's positions do not move back either

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.starts.append((self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        line, column = self.starts.pop()
        if node not in self.places:  # a syntactic position, noted while the node was generated, stands
            self.places[node] = (line, column, self.line, self.column)

    def record_syntactic_position(self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None,
                                  end_node: cst.CSTNode | None = None) -> _Syntactic:
        return _Syntactic(self, node, start_node, end_node)


class _Syntactic:
    """A node's place without the whitespace it owns: from `start_node`'s start and to `end_node`'s end when
    given (noted by then), else where the code inside the block starts and ends."""

    __slots__ = ("state", "node", "start_node", "end_node", "line", "column")

    def __init__(self, state: _Placing, node: cst.CSTNode, start_node: cst.CSTNode | None,
                 end_node: cst.CSTNode | None) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node
        self.line = self.column = 0

    def __enter__(self) -> None:
        self.line, self.column = self.state.line, self.state.column

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        # as LibCST's `finally`: also while an error unwinds (a RecursionError: then a KeyError, which
        # Chunk.of recognises, when the start or end node was never noted)
        state = self.state
        start = state.places[self.start_node][:2] if self.start_node is not None else (self.line, self.column)
        end = state.places[self.end_node][2:] if self.end_node is not None else (state.line, state.column)
        state.places[self.node] = (*start, *end)


def places(module: cst.Module) -> dict[cst.CSTNode, Place]:
    """Every node's place in `module`, as LibCST's PositionProvider places it."""
    state = _Placing(module)
    module._codegen(state)  # type: ignore[arg-type]  # duck-typed: the interface of LibCST's codegen state
    return state.places


def code_range(place: Place) -> CodeRange:
    return CodeRange(CodePosition(place[0], place[1]), CodePosition(place[2], place[3]))
