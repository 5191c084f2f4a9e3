"""Read a `TORCH_TRACE` directory (what tlparse reads) into typed facts.

The log is glog-prefixed JSON lines; an entry with `has_payload` (the md5 of
the payload) is followed by its payload, one tab-prefixed line per line.
File names in stacks are interned through `{"str": [path, id]}` entries, and
`frame_id`/`frame_compile_id` form Dynamo's compile id `F/C`. Compile ids
restart after `torch._dynamo.reset()`, so a compile is identified by the
order it appears in, not by its id alone.

Nothing here imports torch: the facts are read as text, and anything unknown
or damaged is skipped and recorded in `TraceFacts.problems`."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vtlint.bounded import MiB, loads, open_text

SUPPORTED_TORCH = ((2, 6), (2, 15))  # inclusive range of minor versions whose format we read
TRACE_GLOB = "dedicated_log_torch_trace_*.log"
# A trace is read only as regular files (a FIFO or a linked /dev/zero there must not hang or
# exhaust the run), line by line with each line capped, and the whole folder within a budget
# of bytes and of entries (lines that are not a payload's), shared by every file in it: a
# harness writing 10 M junk lines costs seconds and no memory. Of the problems met, the first
# MAX_PROBLEMS are kept and the rest counted.
MAX_TRACE_BYTES = 4 * 1024 * MiB  # a long training run's trace, Inductor's code included, is hundreds of MB
MAX_TRACE_ENTRIES = 1_000_000  # such a trace logs tens of thousands
MAX_LINE_CHARS = 64 * MiB
MAX_PROBLEMS = 100
MAX_FACTS_BYTES = 256 * MiB  # saved facts: about 1 KB an event


class UnsupportedTorchVersion(Exception):
    """The trace was written by a torch whose structured-trace format we do not read."""


@dataclass(frozen=True)
class StackFrame:
    filename: str
    line: int
    name: str
    code: str = ""


@dataclass(frozen=True)
class Guard:
    """A leaf of the guard tree: `EQUALS_MATCH: L['n'] == 3`, with the user line it
    came from. `user_file` is printed by torch relative to a common prefix with
    torch's own install, so it may be only the tail of the real path."""

    kind: str  # EQUALS_MATCH, TYPE_MATCH, ...
    text: str  # the code part: L['n'] == 3
    source: str | None  # the enclosing GuardManager's source, as Dynamo spells it
    type_name: str | None  # that manager's type=<class '...'>: int, seed.Config
    user_file: str | None = None
    user_line: int | None = None
    user_function: str | None = None
    user_code: str | None = None
    hint: str | None = None
    module_like: bool = False  # the manager has _modules/_parameters children: an nn.Module

    @property
    def spelled(self) -> str:
        return f"{self.kind}: {self.text}"


@dataclass(frozen=True)
class GraphBreak:
    compile_id: str
    gb_type: str
    gb_id: str | None
    filename: str | None  # absolute, as the trace prints it
    line: int | None
    explanation: str = ""
    hints: tuple[str, ...] = ()
    user_stack: tuple[StackFrame, ...] = ()
    also: tuple[tuple[str, str | None], ...] = ()  # further breaks met while handling it: (gb_type, gb_id)
    frame_skipped: bool = False  # Dynamo gave up on the frame (GB7000, a fullgraph error)
    fullgraph: bool = False  # raised as an error, not a break (fullgraph=True / error_on_graph_break)


@dataclass(frozen=True)
class RecompileReason:
    """One cache entry's failing guard, as `recompile_reasons` prints it: sources
    in user spelling (`n == 3`, `self.step == 0`), not `L[...]`."""

    compile_id: str  # the compile this reason triggered
    failed_compile_id: str  # the cached compile whose guard failed: 0/0
    text: str  # n == 3
    user_file: str | None = None
    user_line: int | None = None
    user_function: str | None = None
    hint: str | None = None
    user_stack: tuple[StackFrame, ...] = ()


@dataclass(frozen=True)
class Kernel:
    name: str
    kind: str  # cpp | triton
    body: str = ""


@dataclass(frozen=True)
class OutputCode:
    """An `inductor_output_code` module: the kernels Inductor generated."""

    compile_id: str
    kernels: tuple[Kernel, ...]
    code: str


@dataclass(frozen=True)
class InlineCall:
    """A call Dynamo walked into (recorded by vtlint's hook, not by torch)."""

    caller_file: str
    caller_line: int
    caller_function: str
    callee_file: str
    callee_name: str
    callee_qualname: str
    callee_firstlineno: int
    callee_module: str | None = None
    compile_id: str | None = None
    root_file: str | None = None  # the frame being compiled
    root_name: str | None = None
    root_firstlineno: int | None = None


@dataclass
class Compile:
    """One attempt of Dynamo at one frame (a compile id), with everything logged for it."""

    compile_id: str
    frame_id: int
    frame_compile_id: int
    generation: int  # bumped each time compile ids restart (torch._dynamo.reset())
    log: str = ""  # the log file it came from (one per process)
    co_name: str | None = None
    co_filename: str | None = None
    co_firstlineno: int | None = None
    stack: tuple[StackFrame, ...] = ()
    metrics: dict[str, Any] = field(default_factory=dict)
    guards: list[Guard] = field(default_factory=list)
    graph_breaks: list[GraphBreak] = field(default_factory=list)
    recompile_reasons: list[RecompileReason] = field(default_factory=list)
    output_code: list[OutputCode] = field(default_factory=list)
    error: str | None = None  # the dynamo_error artifact
    attempts: int = 1
    closed: bool = False  # compilation_metrics seen

    @property
    def graph_op_count(self) -> int | None:
        return self.metrics.get("graph_op_count")

    @property
    def fail_type(self) -> str | None:
        return self.metrics.get("fail_type")

    @property
    def fail_reason(self) -> str | None:
        return self.metrics.get("fail_reason")

    @property
    def has_graph(self) -> bool:
        """Dynamo installed compiled code with a non-empty graph."""
        return bool(self.metrics.get("has_guarded_code")) and bool(self.graph_op_count)

    @property
    def recompile_limit_hit(self) -> bool:
        return "recompile limit" in (self.fail_reason or "").lower() or "gb0039" in (self.fail_reason or "")


class Problems(list[str]):
    """What is wrong with a trace: the first MAX_PROBLEMS, and how many more there were."""

    def __init__(self) -> None:
        super().__init__()
        self.more = 0

    def append(self, problem: str) -> None:
        if len(self) < MAX_PROBLEMS:
            super().append(problem)
        else:
            self.more += 1

    @property
    def total(self) -> int:
        return len(self) + self.more


class TraceBudget:
    """What reading one trace folder may still take: bytes, and entries (lines outside a payload)."""

    def __init__(self) -> None:
        self.bytes = MAX_TRACE_BYTES
        self.entries = MAX_TRACE_ENTRIES

    def take(self, line: str, problems: list[str]) -> bool:
        """Charge `line`; False (once with a problem saying so) when the budget is spent."""
        spent = self.bytes < 0 or self.entries < 0
        self.bytes -= len(line)
        self.entries -= not line.startswith("\t")
        if not spent and (self.bytes < 0 or self.entries < 0):  # first: said before any other problem
            problems.insert(0, f"the trace folder holds more than vtlint reads ({MAX_TRACE_BYTES // MiB:,} MiB "
                               f"or {MAX_TRACE_ENTRIES:,} entries): the rest is not read")
        return self.bytes >= 0 and self.entries >= 0


@dataclass
class TraceFacts:
    torch_version: str | None = None
    compiles: list[Compile] = field(default_factory=list)
    inlines: list[InlineCall] = field(default_factory=list)
    problems: Problems = field(default_factory=Problems)
    logs: list[str] = field(default_factory=list)

    @property
    def graph_breaks(self) -> list[GraphBreak]:
        return [gb for c in self.compiles for gb in c.graph_breaks]

    @property
    def recompile_reasons(self) -> list[RecompileReason]:
        return [r for c in self.compiles for r in c.recompile_reasons]

    def files(self) -> set[str]:
        """Every absolute file name the trace mentions for user code."""
        names = {c.co_filename for c in self.compiles if c.co_filename}
        names |= {gb.filename for gb in self.graph_breaks if gb.filename}
        names |= {f.filename for c in self.compiles for f in c.stack}
        return names


# --- the line format -------------------------------------------------------

_GLOG = re.compile(r"^[VIWEC]\d{4} [\d:.]+\s+\d+ [^\]]*\] (?P<json>\{.*)$")


@dataclass(frozen=True)
class _Record:
    data: dict[str, Any]
    payload: str
    line: int


_PAYLOAD_ENTRIES = ("dynamo_cpp_guards_str", "inductor_output_code")
_PAYLOAD_ARTIFACTS = {"torch_version", "dynamo_graph_break_reason", "recompile_reasons", "dynamo_error"}


def _reads_payload(data: dict[str, Any]) -> bool:
    """Only these payloads are kept (and checked); graphs and chromium events are skipped."""
    artifact = data.get("artifact")
    return any(k in data for k in _PAYLOAD_ENTRIES) or (
        isinstance(artifact, dict) and artifact.get("name") in _PAYLOAD_ARTIFACTS)


def _header(text: str, where: str, problems: list[str]) -> dict[str, Any] | None:
    match = _GLOG.match(text)
    if not match:
        problems.append(f"{where}: not a structured-trace line")
        return None
    try:
        data = loads(match["json"])
    except ValueError:  # also nesting too deep to parse
        problems.append(f"{where}: damaged JSON (the trace may be cut off)")
        return None
    return data if isinstance(data, dict) else None


def record_lines(path: Path, problems: list[str], budget: TraceBudget) -> Iterator[tuple[int, str]]:
    """The numbered lines of one file of the trace folder, streamed within the folder's budget
    (vtlint's own records, one JSON object a line, are read with it too)."""
    try:
        handle = open_text(path, MAX_TRACE_BYTES)
    except OSError as exc:
        problems.append(f"{path.name}: cannot read: {exc.strerror}")
        return
    with handle:
        for number, raw in enumerate(iter(lambda: handle.readline(MAX_LINE_CHARS), ""), 1):
            if not budget.take(raw, problems):
                return
            yield number, raw[:-1] if raw.endswith("\n") else raw


def _records(path: Path, problems: list[str], budget: TraceBudget) -> Iterator[_Record]:
    """The entries of one log, streamed (a training run's trace can be large)."""
    current: tuple[int, dict[str, Any] | None, bool] | None = None  # (line, entry, keeps its payload)
    payload: list[str] = []
    for number, line in record_lines(path, problems, budget):
        if line.startswith("\t"):
            if current is not None and current[2]:
                payload.append(line[1:])
            continue
        if current is not None and current[1] is not None:
            record = _finish(current[0], current[1], payload, path.name, problems)
            if record is not None:
                yield record
        current, payload = None, []
        if line:
            data = _header(line, f"{path.name}:{number}", problems)
            current = (number, data, data is not None and _reads_payload(data))
    if current is not None and current[1] is not None:
        record = _finish(current[0], current[1], payload, path.name, problems)
        if record is not None:
            yield record


def _finish(number: int, data: dict[str, Any], lines: list[str], log: str, problems: list[str]) -> _Record | None:
    if not _reads_payload(data):
        return _Record(data, "", number)
    payload = "\n".join(lines)
    expected = data.get("has_payload")
    if isinstance(expected, str) and hashlib.md5(payload.encode("utf-8")).hexdigest() != expected:
        problems.append(f"{log}:{number}: payload does not match its checksum (the trace may be cut off)")
        return None
    return _Record(data, payload, number)


# --- guard trees -----------------------------------------------------------

_TREE_LINE = re.compile(r"^(?P<indent>(?:\| )*)\+- (?P<body>.*)$")
# A dict's entries (a ModuleList's `_modules` iterated, `dict.items()`) hang under a
# DictGuardManager as `KeyManager: GuardManager: ...` / `ValueManager: GuardManager: ...`,
# with no accessor: `ValueManager: GuardManager: source=L['self']._modules['layers']._modules['0'],
# type=<class 'torch.nn.modules.normalization.LayerNorm'>`.
_MANAGER = re.compile(
    r"^(?:(?:Key|Value)Manager: )?\w*GuardManager: source=(?P<source>.*?)(?:, accessed_by=.*?)?"
    r"(?:, type=<class '(?P<type>[^']*)'>)?(?:, tag_safe=.*)?$"
)
_MODULE_CHILDREN = ("._modules", "._parameters", "._buffers", ".__dict__['_modules']", ".__dict__['_parameters']")
_LEAF = re.compile(r"^(?P<kind>[A-Z][A-Z0-9_]+): (?P<rest>.*)$")
_WHERE = re.compile(r"  # (?P<file>[^#]*?):(?P<line>\d+) in (?P<func>[\w<>.]+)(?: \(HINT: (?P<hint>.*)\))?$")


def _split_verbose(rest: str) -> tuple[str, str | None, int | None, str | None, str | None, str | None]:
    """`code  # user line  # file:line in fn (HINT: ...)` -> its parts. The user
    line may itself hold `#`, so the location is taken from the right."""
    where = _WHERE.search(rest)
    if where is None:
        code, _, _ = rest.partition("  # ")
        return code.rstrip(), None, None, None, None, None
    head = rest[: where.start()]
    code, _, user_code = head.partition("  # ")
    return (code.rstrip(), where["file"].strip(), int(where["line"]), where["func"],
            user_code.strip() or None, where["hint"])


def parse_guard_tree(text: str) -> list[Guard]:
    """The leaves of a `dynamo_cpp_guards_str` tree, each with its manager's source and type."""
    managers: list[tuple[int, str | None, str | None]] = []  # (depth, source, type)
    leaves: list[tuple[str, str | None, str | None, str]] = []  # (kind, source, type, rest of the line)
    module_sources: set[str] = set()
    for line in text.splitlines():
        match = _TREE_LINE.match(line)
        if not match:
            continue
        depth, body = len(match["indent"]) // 2, match["body"]
        manager = _MANAGER.match(body)
        if manager:
            while managers and managers[-1][0] >= depth:
                managers.pop()
            source, type_name = manager["source"], manager["type"]
            if body.startswith("KeyManager:") and managers:
                # a key's guards are the dict's key order (`list(dict.keys(L['w']))[0] == 'a'`):
                # Dynamo reports them for the dict itself
                _, source, type_name = managers[-1]
            managers.append((depth, source, type_name))
            for suffix in _MODULE_CHILDREN:
                if source.endswith(suffix):
                    module_sources.add(source[: -len(suffix)])
            continue
        leaf = _LEAF.match(body)
        if not leaf:
            continue
        while managers and managers[-1][0] >= depth:
            managers.pop()
        _, source, type_name = managers[-1] if managers else (0, None, None)
        leaves.append((leaf["kind"], source, type_name, leaf["rest"]))
    guards = []
    for kind, source, type_name, rest in leaves:
        code, file, line, func, user_code, hint = _split_verbose(rest)
        guards.append(Guard(kind, code, source, type_name, file, line, func, user_code, hint,
                            module_like=source in module_sources))
    return guards


# --- graph breaks ----------------------------------------------------------

_GB_LINK = re.compile(r"gb/gb(\d{4})\.html", re.IGNORECASE)
_AT = re.compile(r"^Graph break in user code at (?P<file>.*):(?P<line>\d+)$", re.MULTILINE)
_TB_FRAME = re.compile(r'^\s*File "(?P<file>[^"]*)", line (?P<line>\d+), in (?P<name>.*)$')
_ENCOUNTERED = ("Encountered graph break when attempting to trace", "Failed to handle graph break gracefully")
_ANOTHER = "*** While handling this graph break, another graph break occurred: ***"


def _gb_ids(text: str) -> list[str]:
    return [f"GB{num}" for num in _GB_LINK.findall(text)]


def _user_traceback(text: str, header: str = "User code traceback:") -> tuple[StackFrame, ...]:
    _, found, tail = text.partition(header)
    if not found:
        return ()
    frames: list[StackFrame] = []
    lines = tail.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("Traceback (most recent call last)") or (line and not line.startswith(" ")):
            break
        match = _TB_FRAME.match(line)
        if match:
            code = lines[index + 1].strip() if index + 1 < len(lines) and not _TB_FRAME.match(lines[index + 1]) else ""
            frames.append(StackFrame(match["file"], int(match["line"]), match["name"].strip(), code))
    return tuple(frames)


def _break_sections(reason: str) -> list[str]:
    """The text after `Graph Break Reason:` split into one section per break."""
    return [part.strip("\n") for part in reason.split(_ANOTHER)]


def _gb_type_of(section: str) -> str:
    """The registry's Gb_type: the first meaningful line of a section (after
    the `Encountered graph break when attempting to trace ...:` preamble)."""
    lines = [ln.strip() for ln in section.splitlines()]
    if lines and lines[0].startswith(_ENCOUNTERED):
        rest = lines[0].split("Graph break encountered:", 1)
        if len(rest) == 2 and rest[1].strip():
            return rest[1].strip()
        lines = lines[1:]
    for line in lines:
        if line and not line.startswith(("Explanation:", "Hint:")):
            return line
    return ""


def _explanation_and_hints(section: str) -> tuple[str, tuple[str, ...]]:
    explanation, hints = "", []
    for line in section.splitlines():
        stripped = line.strip()
        if stripped.startswith("Explanation:"):
            explanation = stripped.removeprefix("Explanation:").strip()
        elif stripped.startswith("Hint:"):
            hints.append(stripped.removeprefix("Hint:").strip())
    return explanation, tuple(hints)


def parse_graph_break(text: str, compile_id: str) -> GraphBreak:
    """A `dynamo_graph_break_reason` artifact."""
    at = _AT.search(text)
    _, found, reason = text.partition("Graph Break Reason:")
    if not found:  # torch before the graph-break registry printed `Reason: Unsupported: ...`
        _, _, reason = text.partition("\nReason:")
    reason = reason.split("\nUser code traceback:", 1)[0].split("\nStack variable source attribution:", 1)[0]
    sections = _break_sections(reason.strip())
    first = sections[0]
    gb_type = _gb_type_of(first)
    ids = [(_gb_type_of(s), (_gb_ids(s) or [None])[0]) for s in sections]
    explanation, hints = _explanation_and_hints(first)
    skipped = "Skipping the function and falling back to eager" in text or any(i == "GB7000" for _, i in ids)
    return GraphBreak(
        compile_id=compile_id,
        gb_type=gb_type,
        gb_id=ids[0][1],
        filename=at["file"] if at else None,
        line=int(at["line"]) if at else None,
        explanation=explanation,
        hints=hints,
        user_stack=_user_traceback(text),
        also=tuple(ids[1:]),
        frame_skipped=skipped,
    )


def graph_break_from_failure(compile: Compile) -> GraphBreak | None:
    """A compile that raised (fullgraph=True, error_on_graph_break) logs no
    graph-break artifact: read the break from `compilation_metrics`."""
    reason = compile.fail_reason or ""
    ids = _gb_ids(reason)
    if compile.fail_type != "Unsupported" or not ids or compile.recompile_limit_hit:
        return None
    sections = _break_sections(reason)
    explanation, hints = _explanation_and_hints(sections[0])
    file, line = compile.metrics.get("fail_user_frame_filename"), compile.metrics.get("fail_user_frame_lineno")
    return GraphBreak(
        compile_id=compile.compile_id,
        gb_type=_gb_type_of(sections[0]),
        gb_id=ids[0],
        filename=file,
        line=int(line) if line is not None else None,
        explanation=explanation,
        hints=hints,
        user_stack=(StackFrame(file, int(line), compile.co_name or ""),) if file and line is not None else (),
        also=tuple((_gb_type_of(s), (_gb_ids(s) or [None])[0]) for s in sections[1:]),
        frame_skipped=True,
        fullgraph=True,
    )


# --- recompile reasons -----------------------------------------------------

_REASON = re.compile(r"^(?P<id>!?\d+/\d+): (?P<rest>.*)$", re.DOTALL)


def parse_recompile_reasons(payload: str, compile_id: str) -> list[RecompileReason]:
    """The `recompile_reasons` artifact: a JSON list of strings, or (with one
    reason) the bare string."""
    try:
        value = loads(payload)
    except ValueError:
        value = payload
    items = value if isinstance(value, list) else [value]
    reasons = []
    for item in items:
        if not isinstance(item, str):
            continue
        head, _, _ = item.partition("\nUser stack trace:")
        match = _REASON.match(head.strip())
        if not match:
            continue
        code, file, line, func, _, hint = _split_verbose(match["rest"])
        reasons.append(RecompileReason(
            compile_id=compile_id,
            failed_compile_id=match["id"],
            text=code,
            user_file=file,
            user_line=line,
            user_function=func,
            hint=hint,
            user_stack=_user_traceback(item, "User stack trace:"),
        ))
    return reasons


# --- Inductor output -------------------------------------------------------

_CPP_KERNEL = re.compile(
    r"^(?P<name>cpp_fused_\w+) = async_compile\.cpp\w*\(.*?r?'''(?P<body>.*?)'''", re.MULTILINE | re.DOTALL
)
_TRITON_KERNEL = re.compile(
    r"^(?P<name>triton_\w+) = async_compile\.triton\(\s*'(?P<kname>\w+)'\s*,\s*'''(?P<body>.*?)'''",
    re.MULTILINE | re.DOTALL,
)


def parse_output_code(code: str, compile_id: str) -> OutputCode:
    kernels = [Kernel(m["name"], "cpp", m["body"]) for m in _CPP_KERNEL.finditer(code)]
    kernels += [Kernel(m["name"], "triton", m["body"]) for m in _TRITON_KERNEL.finditer(code)]
    return OutputCode(compile_id, tuple(kernels), code)


def literal_in_kernels(value: str, kernels: tuple[Kernel, ...] | list[Kernel]) -> bool:
    """Whether a baked Python number appears as an immediate in a kernel body
    (`3` shows as `3.0`, `3L`, `3.0f` in C++ and Triton)."""
    try:
        number = float(value)
    except ValueError:
        return False
    spellings = {repr(number), f"{number:g}"}
    if number.is_integer():
        spellings.add(str(int(number)))
    alternatives = "|".join(re.escape(s) for s in sorted(spellings, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w.])-?(?:{alternatives})(?:\.0*)?[Lf]?(?![\w.])")
    return any(pattern.search(k.body) for k in kernels)


# --- the whole trace -------------------------------------------------------


def check_torch_version(version: str) -> None:
    match = re.match(r"(\d+)\.(\d+)", version)
    if not match:
        return
    found = (int(match[1]), int(match[2]))
    low, high = SUPPORTED_TORCH
    if not low <= found <= high:
        raise UnsupportedTorchVersion(
            f"the trace was written by torch {version}; vtlint reads the structured-trace format of "
            f"torch {low[0]}.{low[1]} to {high[0]}.{high[1]}"
        )


class _Reader:
    """Routes the records of one log file to the compile they belong to."""

    def __init__(self, facts: TraceFacts, log: str) -> None:
        self.facts = facts
        self.log = log
        self.strings: dict[int, str] = {}
        self.open: dict[tuple[int, int], Compile] = {}
        self.generation = 0
        self.seen_ids: set[tuple[int, int]] = set()

    def compile_for(self, data: dict[str, Any], starting: bool) -> Compile | None:
        if "frame_id" not in data or "frame_compile_id" not in data or data.get("compiled_autograd_id") is not None:
            return None
        key = (int(data["frame_id"]), int(data["frame_compile_id"]))
        current = self.open.get(key)
        if current is not None and (not current.closed or not starting):
            if data.get("attempt", 0) and data.get("attempt", 0) + 1 > current.attempts:
                current.attempts = data["attempt"] + 1
            return current
        if current is None and not starting:
            starting = True  # an entry of a compile whose start was not logged (or was cut off)
        if key in self.seen_ids:  # the same id again: compile ids restarted
            self.generation += 1
            self.seen_ids.clear()
        self.seen_ids.add(key)
        created = Compile(f"{key[0]}/{key[1]}", key[0], key[1], self.generation, self.log)
        self.open[key] = created
        self.facts.compiles.append(created)
        return created

    def stack(self, frames: Any) -> tuple[StackFrame, ...]:
        out = []
        for frame in frames or ():
            name = frame.get("filename")
            filename = self.strings.get(name, str(name)) if isinstance(name, int) else str(name)
            line, name = int(frame.get("line") or 0), str(frame.get("name", ""))
            out.append(StackFrame(filename, line, name, frame.get("loc") or ""))
        return tuple(out)

    def feed(self, record: _Record) -> None:
        data, payload = record.data, record.payload
        if "str" in data:
            path, number = data["str"]
            self.strings[int(number)] = path
        elif "dynamo_start" in data:
            compile = self.compile_for(data, starting=True)
            if compile is not None:
                compile.stack = self.stack(data["dynamo_start"].get("stack"))
                if compile.stack:
                    top = compile.stack[-1]
                    compile.co_filename = compile.co_filename or top.filename
                    compile.co_name = compile.co_name or top.name
        elif "compilation_metrics" in data:
            self.metrics(data)
        elif "dynamo_cpp_guards_str" in data:
            compile = self.compile_for(data, starting=False)
            if compile is not None:
                compile.guards = parse_guard_tree(payload)  # the last attempt's tree is the installed one
        elif "inductor_output_code" in data:
            compile = self.compile_for(data, starting=False)
            if compile is not None:
                compile.output_code.append(parse_output_code(payload, compile.compile_id))
        elif "artifact" in data:
            self.artifact(data, payload)

    def metrics(self, data: dict[str, Any]) -> None:
        metrics = data["compilation_metrics"]
        compile_id = str(metrics.get("compile_id") or "")
        match = re.fullmatch(r"(\d+)/(\d+)", compile_id)
        if match is None:
            return  # compiled autograd or another tool's compile
        compile = self.compile_for({"frame_id": int(match[1]), "frame_compile_id": int(match[2])}, starting=False)
        if compile is None:
            return
        compile.metrics = metrics
        compile.co_name = metrics.get("co_name") or compile.co_name
        compile.co_filename = metrics.get("co_filename") or compile.co_filename
        compile.co_firstlineno = metrics.get("co_firstlineno") or compile.co_firstlineno
        compile.closed = True
        if not compile.graph_breaks:
            failure = graph_break_from_failure(compile)
            if failure is not None:
                compile.graph_breaks.append(failure)
        if self.facts.torch_version is None and metrics.get("pytorch_version"):
            self.facts.torch_version = str(metrics["pytorch_version"])

    def artifact(self, data: dict[str, Any], payload: str) -> None:
        name = data["artifact"].get("name", "")
        if name == "torch_version":
            try:
                self.facts.torch_version = str(loads(payload).get("pytorch_version"))
            except (ValueError, AttributeError):
                self.facts.problems.append(f"{self.log}: unreadable torch_version artifact")
            return
        starting = name == "recompile_reasons"  # logged just before the new compile's dynamo_start
        compile = self.compile_for(data, starting=starting)
        if compile is None:
            return
        if name == "dynamo_graph_break_reason":
            compile.graph_breaks.append(parse_graph_break(payload, compile.compile_id))
        elif name == "recompile_reasons":
            compile.recompile_reasons.extend(parse_recompile_reasons(payload, compile.compile_id))
        elif name == "dynamo_error":
            compile.error = payload


def parse_trace_dir(directory: Path, *, check_version: bool = True) -> TraceFacts:
    """All facts of a TORCH_TRACE directory (one log per process), plus the
    inline records vtlint's hook wrote there."""
    facts = TraceFacts()
    budget = TraceBudget()
    logs = sorted(directory.glob(TRACE_GLOB), key=_written) if directory.is_dir() else []
    for log in logs:
        facts.logs.append(log.name)
        reader = _Reader(facts, log.name)
        for record in _records(log, facts.problems, budget):
            try:
                reader.feed(record)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                facts.problems.append(f"{log.name}:{record.line}: unexpected entry ({type(exc).__name__}: {exc})")
    _inherit_frames(facts.compiles)
    facts.inlines = read_inline_records(directory, facts.problems, budget)
    if check_version and facts.torch_version:
        check_torch_version(facts.torch_version)
    return facts


def _written(path: Path) -> tuple[float, str]:
    try:
        return os.lstat(path).st_mtime, path.name
    except OSError:
        return 0.0, path.name


def _inherit_frames(compiles: list[Compile]) -> None:
    """A compile that failed before tracing (the recompile limit) logs no code
    object: it is the same frame as the other compiles with its frame id."""
    known = {(c.log, c.generation, c.frame_id): c for c in compiles if c.co_name and c.co_filename}
    for compile in compiles:
        source = known.get((compile.log, compile.generation, compile.frame_id))
        if source is not None and not compile.co_name:
            compile.co_name, compile.co_filename = source.co_name, source.co_filename
            compile.co_firstlineno = compile.co_firstlineno or source.co_firstlineno


INLINE_GLOB = "vtlint_inline_*.jsonl"


def read_inline_records(directory: Path, problems: list[str], budget: TraceBudget) -> list[InlineCall]:
    calls: list[InlineCall] = []
    if not directory.is_dir():
        return calls
    for path in sorted(directory.glob(INLINE_GLOB)):
        for number, line in record_lines(path, problems, budget):
            try:
                calls.append(InlineCall(**loads(line)))
            except (ValueError, TypeError):
                problems.append(f"{path.name}:{number}: damaged inline record")
    return calls
