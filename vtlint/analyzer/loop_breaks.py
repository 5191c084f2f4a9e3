"""A graph break inside a loop, as torch 2.13 compiles it.

Whether the break skips the frame is not the loop's kind but its bytecode. Before it compiles a
partial graph, Dynamo asks `InstructionTranslatorBase.maybe_has_backedge`
(torch/_dynamo/symbolic_convert.py; `break_graph_if_unsupported` for a call, `generic_jump`'s
`jump_graph_break` for a branch on a tensor): from the instruction that breaks (for a break inside
an inlined call, the root frame's call instruction) to the first RETURN_VALUE / RETURN_CONST, does
any jump go back to an earlier offset? Then the frame is skipped ("graph break in loop", GB7000);
otherwise the graph so far is compiled and the rest of the frame resumes, inside the loop. So
`for w in ws: ...; if x.sum() > 1e9: return x` resumes (the return comes before the loop's jump
back) while `if x.sum() > 1e9: x = x - 1` in the same place skips, and so does an `else: return`
(the `if` body's jump to the end of the loop body is threaded into the jump back). This module
answers the question on the frame's own bytecode, compiled by the interpreter the analyzer runs
on from the module's text (compiling is not running: nothing is imported or executed).

A loop that resumes hands its iterator to the resume function (`___stack0`), which Dynamo must
rebuild there; whether it can depends on what it iterates (measured on torch 2.13):
a list, a tuple (`tuple(ws)`, `sorted(ws)`, `reversed(ws)`, `list(d.items())`, a tensor's rows or
`x.split(...)`) becomes a tuple iterator (guards `___tuple_iterator_len(L['___stack0']) == 2`,
each item `___tuple_iterator_getitem(L['___stack0'], 0)`), a `range` a range iterator
(`___normalize_range_iter(L['___stack0']) == (1, 3, 1)`), `enumerate` over a range or an
nn.ModuleList a tuple iterator of pairs. An nn.Module (ModuleList, Sequential, a slice of one,
ModuleDict views), a dict or its views, and `zip` over modules have no reconstruction ("Reconstruction
failure", GB0092); `enumerate` over anything else and a generator expression are generators Dynamo
cannot rebuild once advanced ("Generator reconstruction with mutations", GB8335): both skip the frame,
torch reporting the second break at the same line. `zip` over lists is rebuilt, but the resume
function cannot call next() on it ("Missing tp_iternext", GB4347): that resume frame is skipped."""

from __future__ import annotations

import dis
import types
from dataclasses import dataclass, field

import libcst as cst

from vtlint.analyzer import values as V
from vtlint.analyzer.breaks import MISSING_NEXT  # GB4347: rebuilt, but the resume frame's FOR_ITER fails (skipped)
from vtlint.analyzer.index import Parsed
from vtlint.analyzer.values import Value

# torch/_dynamo/bytecode_analysis.py's JUMP_OPNAMES
_JUMPS = frozenset(dis.hasjrel + dis.hasjabs)
_RETURNS = frozenset({"RETURN_VALUE", "RETURN_CONST"})
_CALLS = frozenset({"CALL", "CALL_FUNCTION_EX", "CALL_KW"})

TUPLE_ITERATOR = "tuple iterator"  # rebuilt: TUPLE_ITERATOR_LEN and the items' guards in the resume frame
RANGE_ITERATOR = "range iterator"  # rebuilt: RANGE_ITERATOR_MATCH in the resume frame
RECONSTRUCTION_FAILURE = "Reconstruction failure"  # GB0092: the frame is skipped
GENERATOR_MUTATION = "Generator reconstruction with mutations"  # GB8335: the frame is skipped
SKIPS_AT_BREAK = frozenset({RECONSTRUCTION_FAILURE, GENERATOR_MUTATION})
_DICT_VIEWS = frozenset({"items", "keys", "values"})


@dataclass(frozen=True)
class Point:
    """Where a frame breaks: the node of the instruction, and which instruction it is."""

    node: cst.CSTNode
    jump: bool  # a branch on a tensor (the test's conditional jump), else a call or another instruction
    last: bool = False  # the node's last such instruction (a `while` test repeated at the loop's end)


def has_backedge(parsed: Parsed, fn: cst.FunctionDef, point: Point, memo: dict[object, object]) -> bool | None:
    """torch's maybe_has_backedge at `point` of the frame running `fn`; None when the bytecode
    cannot be had (a syntax this interpreter does not compile) or the point found in it."""
    code = _code_of(parsed, fn, memo)
    if code is None:
        return None
    instructions = list(dis.get_instructions(code))
    at = _instruction(parsed, instructions, point)
    if at is None:
        return None
    offset = instructions[at].offset
    for inst in instructions[at + 1:]:
        if inst.opname in _RETURNS:
            return False
        if inst.opcode in _JUMPS and isinstance(inst.argval, int) and inst.argval < offset:
            return True
    return False


def _code_of(parsed: Parsed, fn: cst.FunctionDef, memo: dict[object, object]) -> types.CodeType | None:
    key = ("function bytecode", id(fn))
    if key not in memo:
        module = _module_code(parsed, memo)
        first = parsed.line(fn.decorators[0] if fn.decorators else fn)  # co_firstlineno: the first decorator's
        found = [c for c in _codes(module) if c.co_name == fn.name.value and c.co_firstlineno == first] \
            if module is not None else []
        memo[key] = found[0] if len(found) == 1 else None
    return memo[key]  # type: ignore[return-value]


def _module_code(parsed: Parsed, memo: dict[object, object]) -> types.CodeType | None:
    key = ("module bytecode", id(parsed.module))
    if key not in memo:
        try:
            memo[key] = compile(parsed.module.code, parsed.summary.display, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            memo[key] = None
    return memo[key]  # type: ignore[return-value]


def _codes(code: types.CodeType) -> list[types.CodeType]:
    out = []
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out += [const, *_codes(const)]
    return out


def _instruction(parsed: Parsed, instructions: list[dis.Instruction], point: Point) -> int | None:
    """The index of the instruction `point` names: the call whose positions are the node's, the
    conditional jump of a test, else the last instruction inside the node."""
    line, column, end_line, end_column = parsed.span(point.node)
    lines = parsed.module.code.splitlines()
    if not (0 < line <= len(lines) and 0 < end_line <= len(lines)):
        return None
    # co_positions count UTF-8 bytes from 0; the spans here code points from 1
    start = (line, len(lines[line - 1][:column - 1].encode()))
    end = (end_line, len(lines[end_line - 1][:end_column - 1].encode()))

    def inside(inst: dis.Instruction) -> bool:
        where = inst.positions
        if where is None or where.lineno is None or where.col_offset is None:
            return False
        return start <= (where.lineno, where.col_offset) and (where.end_lineno, where.end_col_offset) <= end

    if point.jump:
        found = [i for i, inst in enumerate(instructions)
                 if inst.opcode in _JUMPS and "IF" in inst.opname and inside(inst)]
    elif isinstance(point.node, cst.Call):
        found = [i for i, inst in enumerate(instructions) if inst.opname in _CALLS and inst.positions is not None
                 and (inst.positions.lineno, inst.positions.col_offset) == start
                 and (inst.positions.end_lineno, inst.positions.end_col_offset) == end]
    else:
        found = [i for i, inst in enumerate(instructions) if inside(inst)]
        found = found[-1:]
    if not found:
        return None
    return found[-1] if point.last else found[0]


def iterator_kind(node: cst.BaseExpression, iterable: Value, func: Value | None, args: list[Value]) -> str | None:
    """What Dynamo hands a resume function for the loop `for ... in node` (the module docstring's
    table); `func` and `args` when `node` is a call. None: a kind not measured."""
    builtin = func.ref if func is not None and func.kind == V.BUILTIN else None
    if builtin == "enumerate" and args:
        return TUPLE_ITERATOR if args[0].kind in (V.NN_MODULE, V.RANGE) else GENERATOR_MUTATION
    if builtin == "zip":
        return RECONSTRUCTION_FAILURE if any(a.kind == V.NN_MODULE for a in args) else MISSING_NEXT
    if isinstance(node, cst.GeneratorExp):
        return GENERATOR_MUTATION
    owner = func.bound_self if func is not None else None
    if owner is not None and owner.kind in (V.DICT, V.NN_MODULE) and isinstance(node, cst.Call) \
            and isinstance(node.func, cst.Attribute) and node.func.attr.value in _DICT_VIEWS:
        return RECONSTRUCTION_FAILURE
    if iterable.kind in (V.DICT, V.NN_MODULE):
        return RECONSTRUCTION_FAILURE
    if iterable.kind == V.RANGE:
        return RANGE_ITERATOR
    if iterable.kind in (V.LIST, V.TUPLE, V.TENSOR):
        return TUPLE_ITERATOR
    return None


# what the cache of a resume function a loop re-enters does with an entry
COMPILED = "compiled"
CACHE_HIT = "cache hit"
OVER_LIMIT = "over the recompile limit"  # the frame runs eagerly from then on


@dataclass(frozen=True)
class Handed:
    """A loop's iterator as the resume function gets it (`L['___stack0']`), with the items it has left."""

    source: str
    kind: str
    left: int

    def guard(self) -> tuple[str, str] | None:
        """Its guard in the resume frame: (guard kind, the guard as Dynamo prints it)."""
        inner = self.source  # L['___stack0']
        if self.kind == TUPLE_ITERATOR:
            return "TUPLE_ITERATOR_LEN", f"TUPLE_ITERATOR_LEN: ___tuple_iterator_len({inner}) == {self.left}"
        if self.kind == RANGE_ITERATOR:
            return "RANGE_ITERATOR_MATCH", f"RANGE_ITERATOR_MATCH: ___normalize_range_iter({inner}) == ..."
        return None


@dataclass(frozen=True)
class Failure:
    """The guard of the latest compile an entry fails first."""

    source: str
    kind: str
    guard: str
    reason: str
    once: bool  # a number: automatic dynamic makes the next compile general


@dataclass
class ResumeCache:
    """The cache of one resume function a loop comes round to, entry by entry: an iterator has fewer
    items left each time (its length guard fails on every iteration, until recompile_limit); a number
    the frame is handed fails its EQUALS_MATCH once, then automatic dynamic guards only its type; a
    flag or a string fails for each new value."""

    limit: int
    entries: list[tuple[tuple[Handed, ...], dict[str, object]]] = field(default_factory=list)
    first: dict[str, object] = field(default_factory=dict)  # each number's value at the first compile
    dynamic: set[str] = field(default_factory=set)
    failures: dict[str, int] = field(default_factory=dict)  # Source -> compiles it caused

    def enter(self, iterators: tuple[Handed, ...], constants: dict[str, object]) -> tuple[str, Failure | None]:
        if any(self._holds(entry, iterators, constants) for entry in self.entries):
            return CACHE_HIT, None
        if len(self.entries) >= self.limit:
            return OVER_LIMIT, None
        failure = self._failure(iterators, constants) if self.entries else None
        for name, value in constants.items():
            self.first.setdefault(name, value)
            if _numeric(value) and self.first[name] != value:
                self.dynamic.add(name)  # automatic dynamic: the next compile takes it as a SymInt
        self.entries.append((iterators, {n: v for n, v in constants.items() if n not in self.dynamic}))
        if failure is not None:
            self.failures[failure.source] = self.failures.get(failure.source, 0) + 1
        return COMPILED, failure

    @staticmethod
    def _holds(entry: tuple[tuple[Handed, ...], dict[str, object]], iterators: tuple[Handed, ...],
               constants: dict[str, object]) -> bool:
        handed, values = entry  # a number dynamic at that compile is not in its values
        return handed == iterators and all(constants.get(name, _ABSENT) == value for name, value in values.items())

    def _failure(self, iterators: tuple[Handed, ...], constants: dict[str, object]) -> Failure | None:
        """What the latest compile's guards find changed: an iterator's length first, then a number."""
        handed, values = self.entries[-1]
        for before, now in zip(handed, iterators):
            if before != now and (guard := before.guard()) is not None:
                return Failure(before.source, guard[0], guard[1],
                               f"the loop comes round to the resume function with {now.left} items left in its "
                               f"{before.kind}: {guard[1]} fails, so each iteration compiles it again, up to "
                               f"recompile_limit ({self.limit})", once=False)
        for name, value in values.items():
            if name in self.dynamic or constants.get(name, _ABSENT) == value:
                continue
            source = f"L[{name!r}]"
            once = _numeric(value)
            return Failure(source, "EQUALS_MATCH", f"EQUALS_MATCH: {source} == {value!r}",
                           f"the loop comes round to the resume function with {source} = "
                           f"{constants.get(name)!r}: EQUALS_MATCH: {source} == {value!r} fails" +
                           ("; automatic dynamic makes the next compile take it as a SymInt" if once else
                            ", for each new value"), once=once)
        return None


_ABSENT = object()


def _numeric(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
