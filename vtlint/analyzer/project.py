"""Analyze a set of files as one project (entries may inline across modules).

Per file (cached by content hash, within its time and size budget): parse once
with LibCST and summarise; with `jobs > 1`, worker processes take the modules
the walks will not enter. Then, in this process: find the compiled entries in
the modules that can hold them, walk each entry, and predict its recompiles from
the call sites and assignments the project shows."""

from __future__ import annotations

import ast
import functools
import hashlib
import io
import multiprocessing
import os
import re
import signal
import sys
import tokenize
from collections import Counter
from collections.abc import Callable, Container
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, fields, replace
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any

import libcst as cst

from vtlint.analyzer import values as V
from vtlint.analyzer.api import FILE_SKIPPED, UNFOLLOWED_COMPILE, EntryInfo, FileProblem, Prediction
from vtlint.analyzer.budget import ENTRY_BUDGET_S, OverBudget, time_limit
from vtlint.analyzer.cache import Cache, code_key, digest
from vtlint.analyzer.cache_entries import replay
from vtlint.analyzer.chunks import ChunkCache, Positions, PythonParse, parse_chunked, python_parse
from vtlint.analyzer.driver import EagerRun, drive
from vtlint.analyzer.entries import EntrySpec, ModuleFacts, Site, scan, worth_scanning
from vtlint.analyzer.files import SourceError, SourceFile, read_source
from vtlint.analyzer.index import Parsed, Project, parsed_module
from vtlint.analyzer.recompiles import predict_recompiles, resumed_changes
from vtlint.analyzer.rescan import ScanMemo, scan_reusing
from vtlint.analyzer.seeding import decorated_root, entry_env, site_value
from vtlint.analyzer.summary import ModuleSummary, positional_params, summarize
from vtlint.analyzer.values import Value
from vtlint.analyzer.walk import (
    Act,
    CalleeFrame,
    Frame,
    Functions,
    TooComplex,
    Walker,
    wrapped_arguments,
    wrapped_raw_names,
)
from vtlint.analyzer.wrapper_cache import WrapperCaches
from vtlint.config import Config, DynamoSettings
from vtlint.findings import Kind, Level, Location, Notification
from vtlint.rules.trace_rules.snapshot import fingerprint as snapshot_fingerprint
from vtlint.rules.trace_rules.snapshot import installed_torch_version
from vtlint.trace import Action, Event


def parse_error_location(exc: cst.ParserSyntaxError, display: str) -> Location:
    return Location(display, exc.raw_line, exc.raw_column + 1)


def _syntax_problem(text: str, display: str, exc: cst.ParserSyntaxError | None) -> FileProblem:
    """Python's own message and position (more precise than LibCST's), except for an
    unclosed bracket, which Python pins on the bracket: there the report stays where
    parsing stopped and names the bracket's position."""
    where = parse_error_location(exc, display) if exc is not None else Location(display, 1, 1)
    try:
        compile(text, display, "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
    except SyntaxError as err:
        line, column = err.lineno or where.line, err.offset or 1
        if "was never closed" not in str(err.msg):
            return FileProblem(Kind.SYNTAX_ERROR, Location(display, line, column), f"SyntaxError: {err.msg}")
        return FileProblem(Kind.SYNTAX_ERROR, where, f"SyntaxError: {err.msg} (line {line}, column {column})")
    except (ValueError, RecursionError, MemoryError) as err:
        return FileProblem(Kind.SYNTAX_ERROR, where, f"SyntaxError: {err}")
    message = exc.message if exc is not None else "LibCST cannot parse this file"
    return FileProblem(Kind.SYNTAX_ERROR, where, f"SyntaxError: {message}")


MAX_TOKENS = 250_000  # a file past this is not parsed: ~400 MB of LibCST tree and positions

# (summary, why the file is unusable, its entries and sites, why it was given up: over its budget)
FileResult = tuple[ModuleSummary | None, FileProblem | None, ModuleFacts | None, Notification | None]


# Python's own limits; LibCST's native parser would overflow its stack on such input.
_NESTING_ERRORS = ("too many nested parentheses", "too many levels of indentation", "too many statically nested")


# The AST depth Python accepts scales with the recursion limit, which workers raise: a fixed
# limit gives one verdict for every --jobs, and keeps chains LibCST takes hours on away from it.
_AST_RECURSION_LIMIT = 1000


# Python keeps `a and b and ...` flat; LibCST's native parser nests it and overflows its stack past about
# 8,000 terms (the process dies): longer chains are refused before LibCST sees them.
MAX_BOOLEAN_TERMS = 4000


def _long_boolean_chain(text: str, body: list[ast.stmt]) -> tuple[int, int] | None:
    """Where an `and`/`or` of more than MAX_BOOLEAN_TERMS terms starts (looked for only in a text that
    could hold one)."""
    if text.count(" and ") + text.count(" or ") <= MAX_BOOLEAN_TERMS:
        return None
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(node, ast.BoolOp) and len(node.values) > MAX_BOOLEAN_TERMS:
            return node.lineno, node.col_offset + 1
    return None


def _python_rejects(text: str, display: str, chunks: ChunkCache | None) -> FileProblem | PythonParse | SyntaxError:
    """Python's verdict first: cheap next to LibCST, and it keeps pathological
    nesting away from LibCST's native parser. Its statements when the file is valid
    (and, with `chunks`, the pieces they cut it into, parsed again only where it changed)."""
    if "\0" in text:  # Python refuses a NUL byte anywhere, without saying where: say where it is
        before = text[:text.index("\0")]
        line, column = before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
        return FileProblem(Kind.SYNTAX_ERROR, Location(display, line, column),
                           "SyntaxError: source code cannot contain null bytes")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(_AST_RECURSION_LIMIT)
    def parse(code: str) -> ast.Module:
        return compile(code, display, "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)

    try:
        found = PythonParse(parse(text).body, None) if chunks is None else python_parse(text, display, chunks, parse)
        if (place := _long_boolean_chain(text, found.body)) is not None:
            # (a chunked parse numbers each piece's lines from its own start: there, the file's first line)
            return FileProblem(Kind.SYNTAX_ERROR, Location(display, *(place if chunks is None else (1, 1))),
                               f"too complex to parse: a chain of more than {MAX_BOOLEAN_TERMS:,} `and`/`or` terms")
        return found
    except SyntaxError as err:
        if any(reason in str(err.msg) for reason in _NESTING_ERRORS):
            return FileProblem(Kind.SYNTAX_ERROR, Location(display, err.lineno or 1, err.offset or 1),
                               f"SyntaxError: {err.msg}")
        return err  # LibCST reports it below, with Python's message (or, if LibCST accepts it, Python's verdict)
    except (RecursionError, MemoryError, ValueError) as err:
        return FileProblem(Kind.SYNTAX_ERROR, Location(display, 1, 1), f"too complex to parse: {err!r}")
    finally:
        sys.setrecursionlimit(limit)


def _summarize_one(display: str, text: str, chunks: ChunkCache | None = None, budget_s: float = Config.file_budget,
                   hand_over: bool | None = None, forward: bool = False) -> tuple[FileResult | None, Parsed | None]:
    """Parse and summarise one file; scan it for entries when its text hints at
    any (only then are positions and the entry scan worth their cost). Never raises;
    a file past `budget_s` is given up with a notification. In a worker (`hand_over`
    not None: whether `assume-compiled` makes every `forward` an entry), a module the
    walks will enter is left to the main process, which walks: (None, None). In the main process, `forward`
    (every `forward` is an entry) keeps the tree of a module defining one: its entries' walks need it."""
    limit = sys.getrecursionlimit()
    try:
        with time_limit(budget_s):
            return _summarize_within(display, text, chunks, hand_over, forward)
    except OverBudget:
        sys.setrecursionlimit(limit)  # the alarm may have cut through the parse's own restore
        note = Notification(FILE_SKIPPED, f"{display}: too complex to analyze within {budget_s:g} s (parse and entry "
                            "scan); no predictions for this file", Level.WARNING, Location(display, 1))
        return (None, None, None, note), None


def _too_many_tokens(text: str) -> bool:
    """Whether the file has more than MAX_TOKENS tokens (counted only for texts long
    enough to hold that many: Python's tokenizer streams, so counting costs no memory)."""
    if len(text) <= MAX_TOKENS // 2:
        return False
    count = 0
    try:
        for _ in tokenize.generate_tokens(io.StringIO(text).readline):
            count += 1
            if count > MAX_TOKENS:
                return True
    except (tokenize.TokenError, SyntaxError, ValueError):
        return False  # Python's parse below reports it
    return False


def _summarize_within(display: str, text: str, chunks: ChunkCache | None,
                      hand_over: bool | None, forward: bool = False) -> tuple[FileResult | None, Parsed | None]:
    if _too_many_tokens(text):
        note = Notification(FILE_SKIPPED, f"{display}: more than {MAX_TOKENS:,} tokens, too large to analyze "
                            "within the memory bound (LibCST keeps about 1.5 KB per token); no predictions for this file",
                            Level.WARNING, Location(display, 1))
        return (None, None, None, note), None
    tree = _python_rejects(text, display, chunks)
    if isinstance(tree, FileProblem):
        return (None, tree, None, None), None
    rejected = tree if isinstance(tree, SyntaxError) else None
    tree = None if rejected else tree
    # judged on Python's tree: positions and the entry scan (each costs more than the parse)
    # only for modules that really compile something or configure Dynamo
    worth = tree is None or worth_scanning(tree.body)
    if hand_over is not None and tree is not None and (worth or (hand_over and _defines_forward(tree.body))):
        return None, None
    keep = forward and tree is not None and _defines_forward(tree.body)
    positions: Positions | None = None
    try:
        if chunks is not None:
            module, positions = parse_chunked(text, tree.pieces if tree else None, display, chunks)
        else:
            tree = None  # Python's tree of a big module weighs half of LibCST's: never both at once
            module = cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        return (None, _syntax_problem(text, display, exc), None, None), None
    except RecursionError:
        return (None, FileProblem(Kind.SYNTAX_ERROR, Location(display, 1, 1),
                                  "too complex: nesting deeper than the parser's recursion limit"), None, None), None
    if rejected is not None:  # LibCST knows newer syntax (`type X = ...`) than the Python that runs this code
        version = ".".join(map(str, sys.version_info[:2]))
        where = Location(display, rejected.lineno or 1, rejected.offset or 1)
        return (None, FileProblem(Kind.SYNTAX_ERROR, where, f"SyntaxError: {rejected.msg} (Python {version})"),
                None, None), None
    try:
        summary = summarize(module, display, text, positions.memo if positions is not None else None)
        if not summary.has_hints or not worth:
            return (summary, None, None, None), parsed_module(summary, text, module, positions) if keep else None
        parsed = parsed_module(summary, text, module, positions)
        facts = scan(parsed, with_entries=True) if chunks is None else \
            scan_reusing(parsed, True, chunks.memo(display, "scan", ScanMemo))
        return (summary, None, facts, None), parsed
    except RecursionError:
        return (None, FileProblem(Kind.SYNTAX_ERROR, Location(display, 1, 1),
                                  "too complex: nesting deeper than the analyzer's recursion limit"), None, None), None


def _summarize_batch(batch: list[tuple[str, str]], budget_s: float, forward: bool) -> list[FileResult | None]:
    """A worker's share. None for a module whose code the walks will need (it compiles
    something, or defines a `forward` that `assume-compiled` makes an entry): the main
    process, which walks, parses it (once, not twice)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    return [_summarize_one(display, text, budget_s=budget_s, hand_over=forward)[0] for display, text in batch]


def _defines_forward(body: list[ast.stmt]) -> bool:
    return any(isinstance(node, ast.ClassDef) and any(
        isinstance(item, ast.FunctionDef) and item.name == "forward" for item in node.body) for node in body)


def _config_key(config: Config) -> str:
    return repr((config.root.as_posix(), config.entry_points, config.assume_compiled, config.dynamo.to_dict()))


@functools.cache
def _snapshot_key() -> str:
    torch_version = installed_torch_version() or "none"
    return digest(torch_version, code_key())  # an upgraded analyzer never reads stale results


class _Analysis:
    def __init__(self, config: Config, cache: Cache, jobs: int, chunks: ChunkCache | None, edited: set[str]) -> None:
        self.config = config
        self.cache = cache
        self.chunks = chunks
        self.edited = edited  # the files whose parse `chunks` keeps warm
        self.jobs = max(1, jobs)
        self.prediction = Prediction()
        self.summaries: list[ModuleSummary] = []
        self.facts: dict[str, ModuleFacts] = {}  # display -> entries and sites of a module with hints
        self.parsed: dict[str, Parsed] = {}  # trees kept from an in-process parse

    # phase 1: files -> summaries ---------------------------------------------------
    def summarize(self, sources: list[tuple[str, str]], progress: Callable[[int, int], None] | None) -> None:
        todo: list[tuple[str, str, str]] = []
        for display, text in sources:
            key = digest("summary", _snapshot_key(), display, text)
            cached = self.cache.get("summary", key)
            if cached is not None:
                self._take(cached)
            else:
                todo.append((display, text, key))
        shared: list[FileResult | None] = [None] * len(todo)
        mine: dict[int, FileResult] = {}  # the modules summarised here (handed over by a worker, or all)

        def own(start: int, batch: list[FileResult | None]) -> None:
            for index, done in enumerate(batch, start):
                if done is None:
                    mine[index] = self._summarize_here(*todo[index][:2])

        if self.jobs > 1 and len(todo) > 8:
            size = max(1, len(todo) // (self.jobs * 4))
            batches = [[(d, t) for d, t, _ in todo[i:i + size]] for i in range(0, len(todo), size)]
            work = functools.partial(_summarize_batch, budget_s=self.config.file_budget,
                                     forward="forward" in self.config.assume_compiled)
            # the modules a batch hands over are parsed here while the workers go on with the next batches
            shared = _in_workers(self.jobs, work, batches, done=lambda index, batch: own(index * size, batch))
        else:
            own(0, shared)
        results = [done if done is not None else mine[index] for index, done in enumerate(shared)]
        for (display, _text, key), result in zip(todo, results, strict=True):
            # a file given up (time, size) is tried again next run: the limits may change; an editor's
            # buffer changes at every save, so writing its summary out would only cost the save time
            if result[3] is None and display not in self.edited:
                self.cache.put("summary", key, result)
            self._take(result)
        if progress:
            progress(len(sources), len(sources))

    def _summarize_here(self, display: str, text: str) -> FileResult:
        warm = self.chunks if display in self.edited else None
        done, parsed = _summarize_one(display, text, warm, self.config.file_budget,
                                      forward="forward" in self.config.assume_compiled)
        assert done is not None  # only a worker hands a module over
        if parsed is not None:
            self.parsed[display] = parsed  # kept: the walk needs it if the file holds an entry
        return done

    def _take(self, result: FileResult) -> None:
        summary, problem, facts, given_up = result
        if problem is not None:
            self.prediction.problems.append(problem)
        if given_up is not None:
            self.prediction.notifications.append(given_up)
            self.prediction.cut_short = True
        if summary is not None:
            self.summaries.append(summary)
            if facts is not None:
                self.facts[summary.display] = facts


def analyze(
    files: list[SourceFile],
    config: Config,
    *,
    jobs: int = 1,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
    overrides: dict[Path, str] | None = None,
    chunks: ChunkCache | None = None,
) -> Prediction:
    """`overrides` maps absolute paths to unsaved text (the editor's buffers); `chunks`
    keeps their parsed statements between calls (a long-lived process linting edits)."""
    cache = Cache(enabled=use_cache)
    edited = {f.display for f in files if overrides and f.path in overrides}
    analysis = _Analysis(config, cache, jobs, chunks, edited)
    prediction = analysis.prediction
    sources: list[tuple[str, str]] = []
    unread: list[FileProblem] = []  # this run's own: never cached, never replaced by a cached walk's
    for file in files:
        try:
            text = overrides[file.path] if overrides and file.path in overrides else read_source(file)
        except SourceError as exc:
            unread.append(FileProblem(Kind.IO_ERROR, exc.location, str(exc)))
            continue
        prediction.texts[file.display] = text
        sources.append((file.display, text))
    # every input the walk's result depends on: the files read and those that could not be, the
    # settings, the analyzer's code, the interpreter and its site-packages, the trace_rules snapshot
    walk_key = digest("walk", _config_key(config), _snapshot_key(), sys.prefix, snapshot_fingerprint(),
                      *[f"{d}={hashlib.sha256(t.encode('utf-8', 'surrogatepass')).hexdigest()}" for d, t in sources],
                      *[f"{p.location.path}!{p.message}" for p in unread])
    cached = cache.get("walk", walk_key)
    if cached is not None and _unchanged(cached[4]):
        prediction.problems, prediction.events, prediction.entries, prediction.notifications, _ = cached
        prediction.problems = _in_order(unread + prediction.problems)
        if progress:
            progress(len(sources), len(sources))
        return prediction
    analysis.summarize(sources, progress)
    project = Project(analysis.summaries, dict(prediction.texts), chunks, edited, config.root.resolve(),
                      cache if cache.enabled else None)
    for parsed in analysis.parsed.values():
        project.adopt(parsed)
    _predict(project, config, prediction, analysis.facts, analysis.jobs)
    prediction.problems = _in_order(prediction.problems)
    if not prediction.cut_short:
        cache.put("walk", walk_key, (prediction.problems, prediction.events, prediction.entries,
                                     prediction.notifications, _library_stamps(project)))
    prediction.problems = _in_order(unread + prediction.problems)
    return prediction


def _in_order(problems: list[FileProblem]) -> list[FileProblem]:
    return sorted(problems, key=lambda p: (p.location.path, p.location.line))


Stamp = tuple[str, int, int]  # path, size, mtime (ns); -1, -1 when it is gone


def _stamp(path: str) -> Stamp:
    try:
        info = os.stat(path)
    except OSError:
        return path, -1, -1
    return path, info.st_size, info.st_mtime_ns


def _library_stamps(project: Project) -> tuple[Stamp, ...]:
    """The installed sources the walk read, the site-packages folders it looked in (an install or
    uninstall changes their mtime) and the data files the scripts read: a cached walk holds while
    these are unchanged."""
    return tuple(map(_stamp, sorted({*project.library_displays, *map(str, project.library_roots),
                                     *project.data_paths})))


def _unchanged(stamps: tuple[Stamp, ...]) -> bool:
    return all(_stamp(stamp[0]) == stamp for stamp in stamps)


# phase 2: entries -> predicted trace ------------------------------------------------

def _predict(project: Project, config: Config, prediction: Prediction, scanned: dict[str, ModuleFacts],
             jobs: int) -> None:
    facts = _scan_importers(project, prediction, scanned)
    specs = [spec for f in facts.values() for spec in f.entries]
    specs += _configured_entries(project, config, prediction)
    call_sites = _CallSites(project, facts)
    driven = _drive(project, config, specs, call_sites, facts)
    if driven.timed_out:
        prediction.cut_short = True
        prediction.notifications.append(Notification(
            "limit", "running the calling scripts abstractly took longer than the analyzer's budget: the compiled "
            "calls they make after that point are not seen (recompiles may be missed)", Level.NOTE))
    specs += _discovered_specs(project, driven, specs, prediction)
    unique: dict[tuple[str, str], EntrySpec] = {}
    for spec in specs:
        unique.setdefault((spec.display, spec.qualname), spec)
    specs = list(unique.values())
    walks = _Walks(project, config, specs, facts, call_sites, driven)
    _merge(prediction, specs, walks.run(jobs))
    project.library_displays |= walks.library_displays
    project.data_paths |= walks.data_paths
    # what the scripts made too large to follow, unless a compiled entry's walk met it and said so already
    said = {_too_large(n.message) for n in prediction.notifications}
    prediction.notifications += [Notification("limit", note, Level.NOTE) for note in driven.notes
                                 if _too_large(note) not in said]


@dataclass
class _Walked:
    """One entry's walk (its frame, recompiles, callee frames), as the process that walked it hands it back."""

    events: list[Event]
    entries: list[EntryInfo]
    notifications: list[Notification]
    cut_short: bool


class _Walks:
    """Every entry walked alone: against the project as discovery left it (its scanned modules, the
    eager run's calls), never against what another entry's walk added. So an entry's walk is the same
    whichever process walks it after whichever others, and `--jobs N` splits the walks among forked
    workers (they inherit the parsed project) with the result of `--jobs 1`."""

    def __init__(self, project: Project, config: Config, specs: list[EntrySpec], facts: dict[str, ModuleFacts],
                 call_sites: _CallSites, driven: EagerRun) -> None:
        self.project = project
        self.config = config
        self.specs = specs
        self.facts = facts
        self.call_sites = call_sites
        self.driven = driven
        # what the workers' walks read (installed sources, data files): the cached walk's stamps
        self.library_displays: set[str] = set()
        self.data_paths: set[str] = set()

    def run(self, jobs: int) -> list[_Walked]:
        tasks = self._tasks()
        if jobs <= 1 or len(tasks) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
            return [self.walk(index) for index in range(len(self.specs))]
        global _FORKED
        _FORKED = self
        try:
            done = _in_workers(jobs, _walk_task, tasks, multiprocessing.get_context("fork"))
        finally:
            _FORKED = None
        walked: dict[int, _Walked] = {}
        for results, library, data in done:
            walked.update(results)
            self.library_displays |= library
            self.data_paths |= data
        return [walked[index] for index in range(len(self.specs))]

    def _tasks(self) -> list[list[int]]:
        """The entries of one module together (its positions and scans made once), in the entries' order:
        a module's size says little of its walks' cost (a short module whose model reads another package)."""
        by_module: dict[str, list[int]] = {}
        for index, spec in enumerate(self.specs):
            by_module.setdefault(spec.display, []).append(index)
        return list(by_module.values())

    def walk(self, index: int) -> _Walked:
        own = Prediction()
        facts = dict(self.facts)  # a walk scans the modules it enters into its own copy
        _walk_entry(self.project, self.config, self.specs[index], facts, own, self.call_sites.over(facts),
                    self.driven)
        return _Walked(own.events, own.entries, own.notifications, own.cut_short)


_FORKED: _Walks | None = None  # the walks a forked worker takes its share of


def _walk_task(task: list[int]) -> list[tuple[dict[int, _Walked], set[str], set[str]]]:
    assert _FORKED is not None  # set by the parent before the fork
    walked = {index: _FORKED.walk(index) for index in task}
    return [(walked, set(_FORKED.project.library_displays), set(_FORKED.project.data_paths))]


def _merge(prediction: Prediction, specs: list[EntrySpec], walked: list[_Walked]) -> None:
    """The walks in the order of their entries. A callee frame compiled for several entries (a library
    wrapper they all call, which breaks) is one frame of the run: the first entry whose walk reached it
    reports it, its events and notes; a later one's break at the same place is already reported."""
    reached: set[str] = set()
    keys: set[tuple[Any, ...]] = set()
    for spec, walk in zip(specs, walked, strict=True):
        own = f"{spec.display}:{spec.qualname}"
        callees = {e.entry for e in walk.events} - {own}
        before = reached & callees
        events = [e for e in walk.events if e.entry == own or (e.entry not in before and not (
            e.action is Action.GRAPH_BREAK and e.key in keys))]
        prediction.events += events
        keys |= {e.key for e in events}
        prediction.entries += walk.entries
        prediction.notifications += [n for n in walk.notifications
                                     if not any(n.message.startswith(f"{callee}: ") for callee in before)]
        prediction.cut_short |= walk.cut_short
        reached |= callees | {own}


def _scanned(project: Project, parsed: Parsed) -> ModuleFacts:
    """A module's call sites and assignments, scanned once per process: each entry, walked alone,
    asks again for those of its own module and of the modules it enters."""
    memo = project.memo_of(parsed.module)
    key = ("module facts", parsed.module)
    found = memo.get(key)
    if not isinstance(found, ModuleFacts):
        found = memo[key] = scan(parsed, with_entries=False)
    return found


_TOO_LARGE = re.compile(r"at (.+):\d+ \((.+?)\): the static pass goes on without it$")


def _too_large(note: str) -> tuple[str, str] | None:
    """(file, bound) of a "value too large to follow" note: one value, whichever walk met it where."""
    found = _TOO_LARGE.search(note)
    return (found[1], found[2]) if found else None


def _drive(project: Project, config: Config, specs: list[EntrySpec], call_sites: _CallSites,
           facts: dict[str, ModuleFacts]) -> EagerRun:
    """Every compiled entry's calls, as the modules that make them execute them (in order,
    loops unrolled): the values each call passes; and the entries their compiles create."""
    callers = {spec.display for spec in specs} | {site.display for spec in specs for site in call_sites.of(spec)}
    callers |= {display for display, fact in facts.items() if fact.notes or fact.entries or fact.module_compiles}
    callers = {d for d in callers if d in project.texts and not project.is_library(d) and
               (d in {s.display for s in specs} or project.summaries[d].has_hints or d in facts)}
    return drive(project, config.dynamo, callers | _scripts_above(project, callers),
                 {(spec.display, spec.qualname) for spec in specs})


_MAIN_GUARD = re.compile(r"""if\s+__name__\s*==\s*['"]__main__['"]""")


def _scripts_above(project: Project, callers: set[str], depth: int = 3) -> set[str]:
    """The scripts (a `__main__` block) importing, directly or through a few modules, a module that
    compiles or calls compiled code: `run.py` builds the `Trainer` whose `__init__` compiles."""
    reached = {project.summaries[d].module for d in callers if d in project.summaries}
    found: set[str] = set()
    for _ in range(depth):
        grown = {display for display, summary in project.summaries.items()
                 if display not in callers and not project.is_library(display)
                 and any(name == module or name.startswith(f"{module}.")
                         for name in summary.imports.values() for module in reached if module)}
        reached |= {project.summaries[d].module for d in grown}
        found |= grown
    return {d for d in found if _MAIN_GUARD.search(project.texts.get(d, ""))}


def _in_workers(jobs: int, work: Callable[[Any], list[Any]], batches: list[Any],
                context: BaseContext | None = None, done: Callable[[int, list[Any]], None] | None = None) -> list[Any]:
    """`work` over `batches` in `jobs` processes; `done(index, results)` is called here as each batch
    comes back. Ctrl-C is the main process's to handle: the workers ignore it, and an interrupted run
    stops them at once instead of waiting for their batches (a worker started just as the signal came
    could otherwise keep the run alive)."""
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_ignore_sigint)
    try:
        futures = [pool.submit(work, batch) for batch in batches]
        pending = set(futures)
        while pending:  # short waits: a signal another thread received is seen between them
            finished, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=futures.index) if done else ():
                done(futures.index(future), future.result())
        out = [r for future in futures for r in future.result()]
    except BaseException:
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return out


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


_UNRESOLVED = "torch.compile of a value the static pass cannot resolve"
UNMATCHED_ENTRY = "unmatched-entry"  # an --entry / entry-points target naming nothing: the run is an error


def _discovered_specs(project: Project, driven: EagerRun, specs: list[EntrySpec],
                      prediction: Prediction) -> list[EntrySpec]:
    """Entries only the eager run resolves (`torch.compile(model)` of a model built in `main()`,
    `torch.compile(mod.f)` of another module's function): walked like the others, and the
    scanner's "cannot resolve" note at that compile is withdrawn."""
    known = {(spec.display, spec.qualname): spec for spec in specs}
    found: list[EntrySpec] = []
    resolved: set[tuple[str, int]] = set()
    for (display, qualname), how in driven.discovered.items():
        resolved.add((how.display, how.line))
        if (display, qualname) in known:
            # an entry named by configuration (`--entry`) that the program compiles with options
            # (`dynamic=True`): the options it is compiled with decide its guards
            spec = known[(display, qualname)]
            spec.options = {**how.options, **spec.options}
            continue
        parsed = project.parsed(display)
        fn = parsed.functions.get(qualname) if parsed is not None else None
        if parsed is None or fn is None:
            continue
        found.append(EntrySpec(display, qualname, "torch.compile", how.options, parsed.line(fn),
                               via_module=qualname.endswith(".forward"),
                               compiled_at=Location(how.display, how.line)))
    prediction.notifications = [n for n in prediction.notifications if not (
        n.message == _UNRESOLVED and n.location is not None and (n.location.path, n.location.line) in resolved)]
    return found


def _scan_importers(project: Project, prediction: Prediction, scanned: dict[str, ModuleFacts]) -> dict[str, ModuleFacts]:
    """The entry modules' facts, plus the call sites and assignments of the modules importing them."""
    facts = dict(scanned)
    entry_modules: set[str] = set()
    for display, fact in scanned.items():
        for line, note in fact.notes:
            kind = UNFOLLOWED_COMPILE if note == _UNRESOLVED else "limit"
            prediction.notifications.append(Notification(kind, note, Level.NOTE, Location(display, line)))
        if fact.entries or fact.config:
            entry_modules.add(project.summaries[display].module)
    tails = {m.split(".")[-1] for m in entry_modules}
    for display, summary in list(project.summaries.items()):
        if display in facts or display not in prediction.texts:
            continue
        if any(t.split(".")[0] in tails or any(t.startswith(m) for m in entry_modules) for t in summary.imports.values()):
            parsed = project.parsed(display)
            if parsed is not None:
                try:
                    facts[display] = scan(parsed, with_entries=False)
                except RecursionError:
                    continue
    return facts


def _configured_entries(project: Project, config: Config, prediction: Prediction) -> list[EntrySpec]:
    """`--entry TARGET:Qual.name` and `assume-compiled = ["forward"]`."""
    specs: list[EntrySpec] = []
    for target in config.entry_points:
        where, _, qual = target.rpartition(":")
        summary = _module_for_target(project, config, where)
        if summary is None or (qual not in summary.functions):
            prediction.notifications.append(Notification(
                UNMATCHED_ENTRY, f"--entry {target}: no such function in the project (a file path names it from "
                "the current folder, a dotted name from the project root)", Level.ERROR))
            continue
        parsed = project.parsed(summary.display)
        if parsed is None:
            continue
        line = parsed.line(parsed.functions[qual]) if qual in parsed.functions else 1
        is_method = "." in qual and qual.rpartition(".")[0] in summary.classes
        specs.append(EntrySpec(summary.display, qual, "--entry", {}, line, via_module=is_method))
    if "forward" in config.assume_compiled:
        for display, summary in list(project.summaries.items()):  # is_nn_module may load library modules
            if display not in prediction.texts:
                continue
            lines: dict[str, int] | None = None
            for qual, cls in summary.classes.items():
                if "forward" in cls.methods and f"{qual}.forward" in summary.functions \
                        and project.is_nn_module(summary, cls):
                    lines = _def_lines(prediction.texts[display]) if lines is None else lines
                    line = lines.get(f"{qual}.forward")
                    if line is None:  # Python's parse disagrees: the walk's own tree and positions say
                        parsed = project.parsed(display)
                        if parsed is None or f"{qual}.forward" not in parsed.functions:
                            continue
                        line = parsed.line(parsed.functions[f"{qual}.forward"])
                    specs.append(EntrySpec(display, f"{qual}.forward", "assume-compiled", {}, line, via_module=True))
    return specs


def _def_lines(text: str) -> dict[str, int]:
    """The line of each `def` by qualified name (the summary's names), from Python's own parse: the
    line LibCST places the `def` on, without parsing and positioning the module in this process (the
    walks do that where they run)."""
    lines: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines.setdefault(prefix + child.name, child.lineno)
                visit(child, f"{prefix}{child.name}.<locals>.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)):
                visit(child, prefix)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(_AST_RECURSION_LIMIT)  # the limit the summary's parse of this text passed
    try:
        visit(compile(text, "<module>", "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST), "")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    finally:
        sys.setrecursionlimit(limit)
    return lines


def _module_for_target(project: Project, config: Config, where: str) -> ModuleSummary | None:
    if where.endswith((".py", ".pyi")) or "/" in where:
        path = (config.root / where).resolve()
        for summary in project.summaries.values():
            if (config.root / summary.display).resolve() == path:
                return summary
        return None
    found = project.split(where)
    return found[0] if found and not found[1] else None


def _settings(config: Config, spec: EntrySpec, facts: ModuleFacts | None) -> DynamoSettings:
    known = {f.name for f in fields(DynamoSettings)}
    changes: dict[str, Any] = {}
    for key, value in (facts.config if facts else {}).items():
        name = "recompile_limit" if key == "cache_size_limit" else key
        if name in known and type(value) is type(getattr(config.dynamo, name)):
            changes[name] = value
    if spec.options.get("dynamic") in (True, False):
        changes["dynamic"] = spec.options["dynamic"]
    if spec.options.get("fullgraph") is True:
        changes["fullgraph"] = True
    return replace(config.dynamo, **changes)


def _walk_entry(project: Project, config: Config, spec: EntrySpec, facts: dict[str, ModuleFacts],
                prediction: Prediction, call_sites: _CallSites, driven: EagerRun) -> None:
    parsed = project.parsed(spec.display)
    fn = parsed.functions.get(spec.qualname) if parsed is not None else None
    if parsed is None or not isinstance(fn, cst.FunctionDef):
        return
    entry = f"{spec.display}:{spec.qualname}"
    settings = _settings(config, spec, facts.get(spec.display))
    options = dict(spec.options)
    marks = [m for m in (facts.get(spec.display).marks if spec.display in facts else [])]
    if marks:
        options["marks"] = [f"{kind}({arg}) at line {line}" for kind, arg, line in marks]
    if spec.display not in facts:  # an entry named by configuration: its own assignments still matter
        facts[spec.display] = _scanned(project, parsed)
    calls = driven.calls.get((spec.display, spec.qualname)) or call_sites.of(spec)
    prediction.entries.append(EntryInfo(
        entry, Location(spec.display, spec.line if spec.how == "decorator" else parsed.line(fn)), spec.how, options,
        compiled_at=spec.compiled_at or _compile_site(spec), called_at=_call_sites(project, calls)))
    if "<locals>" in spec.qualname and spec.display in facts:
        outer = spec.qualname.rsplit(".<locals>.", 1)[0].rpartition(".")[2]
        spec.outer_calls = [site for callee, sites in facts[spec.display].calls.items()
                            if callee == outer or callee.startswith(f"{outer}(") for site in sites]
    walker = Walker(project, settings, entry, fn.name.value, ENTRY_BUDGET_S)
    driven.functions.lend(walker)
    walker.replay_grad_modes = _grad_modes(calls)
    walker.grad_enabled = _traced_grad_mode(calls)
    walker.broken_call_sites = len(calls) > 1
    walker.entry_site = _project_call(project, calls)
    _seed_call_state(walker, calls)
    try:
        env = entry_env(walker, parsed, spec, fn, calls)
    except TooComplex as exc:  # building the frame's arguments ran out of the entry's time
        prediction.cut_short |= exc.timed_out
        prediction.notifications.append(Notification(
            "limit", f"{entry}: too complex to predict within the analyzer's budget (building its arguments)",
            Level.WARNING, Location(spec.display, parsed.line(fn))))
        return
    cls = f"{parsed.summary.module}.{spec.qualname.rpartition('.')[0]}" if "." in spec.qualname else None
    act, code = _root_frame(walker, parsed, spec, fn, env, cls, calls)
    events = _walk_frame(walker, act, code, entry, prediction)
    _scan_walked(project, events, facts)
    caches = WrapperCaches()
    if code is not fn:  # a decorator's wrapper: the first entry of its code's cache
        caches.compile(f"{act.display}:{act.qualname}", code, fn, act.env, act.closure, entry,
                       Location(act.display, act.parsed.line(code)))
    if _compiles_nothing(events):
        prediction.events.extend(_dedupe(events))
        _walk_callee_frames(project, settings, walker.callee_frames, prediction, 0, walker.replay_grad_modes,
                            Functions.of(walker), caches)
        return
    recompiles = predict_recompiles(project, spec, settings, events, calls, facts, entry,
                                    functions=driven.functions)
    root = code.name.value
    compiles = _compiles(_of_frame(recompiles, root), calls, settings)
    retyped, names = _retyping_call(calls, fn)
    counted = retyped is not None and any(r.detail.get("call") == retyped for r in recompiles)
    retraces: dict[int, Walker] = {}  # the trace of each later call: its breaks' frames, its resume functions

    def again(index: int) -> list[Event]:
        walkers: list[Walker] = []
        traced = _walk_again(project, settings, spec, fn, cls, calls[index:], prediction, driven.functions, walkers)
        if walkers:
            retraces[index] = walkers[0]
        return traced

    if retyped is None and _first_recompiling_call(calls, _of_frame(recompiles, root)) is not None:
        compiles = _replay_cache(project, settings, spec, root, calls, facts, events, recompiles, again,
                                 driven.functions)
    elif retyped is not None:
        # an argument of another type (a tensor, then an int; a value, then None), or the first call
        # that fails a guard (the model switched to eval(), a flag flipped): Dynamo traces the frame
        # again with the new values, and that compile has guards (and recompiles) of its own
        later = calls[retyped:]
        second = _walk_again(project, settings, spec, fn, cls, later, prediction, driven.functions)
        known = {e.key for e in events}
        # the retyped arguments keep the guard of the first compile (a tensor's TENSOR_MATCH): the
        # report names each Source by it; their new guard is the one the recompiles below name
        events += [e for e in second if e.action is not Action.FRAME and e.key not in known
                   and not (e.source and any(e.source.startswith(f"L['{n}']") for n in names))]
        more = predict_recompiles(project, spec, settings, second, later, facts, entry,
                                  functions=driven.functions) if second else []
        seen = {e.key for e in recompiles}
        more = [e for e in more if e.key not in seen and e.action is Action.RECOMPILE and e.source]
        recompiles += more
        compiles = min(compiles + _compiles(_of_frame(more, root), later, settings) - counted,
                       settings.recompile_limit)
    for index in _other_modules(calls, fn):
        # another model of the same class (an experiment's next configuration) fails the guards its
        # attributes and children got: Dynamo traces the frame again for it, with guards of its own
        other = _walk_again(project, settings, spec, fn, cls, calls[index:], prediction, driven.functions)
        known = {e.key for e in events}
        events += [e for e in other if e.action is not Action.FRAME and e.key not in known]
    resumed = walker.frames[1:]
    if len(calls) > 1 and (any(f.call is not None for f in walker.callee_frames) or any(f.used for f in resumed)):
        # each later call runs the frames its breaks make and its resume functions again, with its own
        # values (a longer sequence)
        _trace_later_calls(calls, retraces, again)
        frame = next(e for e in events if e.action is Action.FRAME)
        recompiles += resumed_changes(resumed, {i: w.frames[1:] for i, w in retraces.items()}, calls, settings,
                                      entry, frame.location)
    for event in events:
        if event.action is Action.FRAME:
            # the runtime counts graphs over the whole run: every recompile of the entry traces its graphs
            # again; a resume function is a code object of its own, with its own cache and recompiles
            event.detail["graphs_per_compile"] = event.detail["graph_count"]
            event.detail["graph_count"] = sum(_frame_graphs(name, times, event.frame, compiles, recompiles, calls,
                                                            settings)
                                              for name, times in Counter(event.detail["graph_frames"]).items())
            event.detail["compiles"] = compiles
    prediction.events.extend(_dedupe(events + recompiles))
    callees = [*walker.callee_frames, *(f for w in retraces.values() for f in w.callee_frames)]
    _walk_callee_frames(project, settings, callees, prediction, 0, walker.replay_grad_modes, Functions.of(walker),
                        caches)


def _frame_graphs(name: str, times: int, entry_frame: str, compiles: int, recompiles: list[Event], calls: list[Site],
                  settings: DynamoSettings) -> int:
    """The graphs one code object of an entry compiles over the run: the entry's, once per compile; a resume
    function's, once per recompile the calls cause; one a loop came round to `times` times (each a compile
    the walk saw, loop_breaks.ResumeCache), that many: the next call finds them all in its cache."""
    if name == entry_frame:
        return compiles * times
    if times > 1:
        return times
    return _compiles([e for e in recompiles if e.frame == name], calls, settings)


def _replay_cache(project: Project, settings: DynamoSettings, spec: EntrySpec, root: str, calls: list[Site],
                  facts: dict[str, ModuleFacts], events: list[Event], recompiles: list[Event],
                  again: Callable[[int], list[Event]], functions: Functions) -> int:
    """A call fails the first compile's guards: Dynamo's cache replayed over the calls, each compile
    traced (`again`) for the call that caused it, so its guards (and what fails them) are its own. Adds
    the later compiles' events and the recompiles found to `events` and `recompiles`; the frame's compiles."""
    entry = f"{spec.display}:{spec.qualname}"

    def check(traced: list[Event], seed: Site, site: Site) -> list[Event]:
        return _of_frame(predict_recompiles(project, spec, settings, traced, [seed, site], facts, entry,
                                            pairwise=True, functions=functions), root)

    cache = replay(calls, events, check, again, settings.recompile_limit)
    known = {e.key for e in events}
    for compiled in cache.entries[1:]:
        if _compiles_nothing(compiled.events):
            continue  # "no content in function call": Dynamo skips the frame, installing no guard
        events += [e for e in compiled.events if e.action is not Action.FRAME and e.key not in known]
        known |= {e.key for e in compiled.events}
    pairwise = {e.key for e in predict_recompiles(project, spec, settings, events, calls, facts, entry, pairwise=True,
                                                  functions=functions)}
    standing = [e for e in _of_frame(recompiles, root) if e.key not in pairwise]  # assignments, mutations
    # a guard of an older entry failing again at a later recompile is the same finding
    seen = {e.source or e.guard_kind for e in recompiles}
    for reason in cache.reasons:
        if (reason.source or reason.guard_kind) not in seen:
            seen.add(reason.source or reason.guard_kind)
            recompiles.append(reason)
    traced = [c for c in cache.entries[1:] if not _compiles_nothing(c.events)]  # skipped ones make no graph
    others = _compiles(standing, calls, settings)
    if any(e.detail.get("every_call") for e in standing):  # every call compiles: the replayed ones among them
        return min(max(len(traced) + 1, others), settings.recompile_limit)
    return min(len(traced) + others, settings.recompile_limit)


def _scan_walked(project: Project, events: list[Event], facts: dict[str, ModuleFacts]) -> None:
    """The assignments of every project module the walk entered (`self.calls += 1` in a
    submodule's forward): their mutations make the guards read there fail."""
    for event in events:
        display = event.callee.rpartition(":")[0] if event.action is Action.INLINE and event.callee else None
        if not display or display in facts or display not in project.texts or project.is_library(display):
            continue
        parsed = project.parsed(display)
        if parsed is not None:
            try:
                facts[display] = _scanned(project, parsed)
            except RecursionError:
                continue


def _guarded_calls(frame: CalleeFrame, calls: list[Site]) -> tuple[EntrySpec, list[Site]]:
    """The function whose locals a callee frame's guards name, and the calls' values by those names: a
    decorator's wrapper's (`self, *args, **kwargs`) by the parameters of the function it wraps."""
    if frame.linked is None:
        return EntrySpec(frame.parsed.summary.display, frame.qualname, "call", {}, frame.parsed.line(frame.fn)), calls
    parsed, target, qualname = frame.linked
    renamed = [replace(site, args=[], kwargs=wrapped_arguments(frame.fn, site.kwargs, target)) for site in calls]
    raw = wrapped_raw_names(frame.fn, calls[0].kwargs, target) if calls else {}
    return EntrySpec(parsed.summary.display, qualname, "call", {}, parsed.line(target), raw_locals=raw), renamed


def _reached(recompiles: list[Event], calls: list[Site]) -> None:
    """Each recompile of a callee frame, reached at the project's call of the entry whose run made the call
    that fails its guards (the second call's longer sequence, not the first call)."""
    for event in recompiles:
        call = event.detail.get("call")
        where = calls[call].reached_at if isinstance(call, int) and call < len(calls) else None
        if where is not None:
            event.detail["reached_at"] = {"path": where.path, "line": where.line}


def _retrace_callee(project: Project, settings: DynamoSettings, frame: CalleeFrame, entry: str,
                    prediction: Prediction, functions: Functions, calls: list[Site], resumes: dict[int, list[Frame]],
                    graphs: list[int], callees: list[CalleeFrame], index: int) -> list[Event]:
    """A callee frame traced once more, with the values of call `index` (one that recompiles it, or one its
    cache serves); the graphs of that compile appended to `graphs` (none for one that compiles nothing), the
    frames its breaks make (the second layer's experts, where the first layer's dense MLP broke nothing) to
    `callees`, its resume functions to `resumes[index]`."""
    call = calls[index]
    walker = Walker(project, settings, entry, frame.fn.name.value, ENTRY_BUDGET_S)
    functions.lend(walker)
    walker.grad_enabled = call.grad_enabled is not False
    walker.replay_grad_modes = [walker.grad_enabled]  # a skipped frame's eager run, under that call's mode
    walker.broken_call_sites = True
    walker.entry_site = call.reached_at
    again = CalleeFrame(frame.parsed, frame.qualname, frame.fn, V.snapshots(call.kwargs), frame.cls,
                        closure=frame.closure, linked=frame.linked)
    scratch = Prediction()
    act = Act(frame.parsed, frame.qualname, again.env(), cls=frame.cls, closure=again.frame_closure())
    walker.wrapper_frame = frame.fn.name.value if frame.linked is not None else None
    events = _walk_frame(walker, act, frame.fn, entry, scratch)
    prediction.cut_short |= scratch.cut_short
    if not _compiles_nothing(events):
        graphs.append(next(e.detail["graph_count"] for e in events if e.action is Action.FRAME))
    callees += walker.callee_frames
    resumes[index] = walker.frames[1:]
    return events


def _seed_call_state(walker: Walker, calls: list[Site]) -> None:
    """What the first call's frame finds when Dynamo traces it: the module-level objects as the program
    left them, and the autocast region it is made in (none when no call is in sight)."""
    if calls:
        memo: dict[int, dict[str, Value]] = {}
        walker.global_objects = {k: V.snapshot(g, memo=memo) for k, g in calls[0].globals.items()}
        walker.autocast = calls[0].autocast


def _compile_site(spec: EntrySpec) -> Location | None:
    """Where the project compiles the entry, when the scan found it there (a decorator, `torch.compile(f)`)."""
    return Location(spec.display, spec.line) if spec.how in ("decorator", "call", "module.compile") else None


def _project_call(project: Project, calls: list[Site]) -> Location | None:
    """The first of `calls` as the project makes it: what reaches the frames its run compiles."""
    return calls[0].location if calls and not project.is_library(calls[0].display) else None


def _call_sites(project: Project, calls: list[Site]) -> tuple[Location, ...]:
    """The project's calls of the compiled callable, each line once, in order."""
    lines = dict.fromkeys((site.display, site.line) for site in calls if not project.is_library(site.display))
    return tuple(Location(display, line) for display, line in lines)


def _root_frame(walker: Walker, parsed: Parsed, spec: EntrySpec, fn: cst.FunctionDef, env: dict[str, Value],
                cls: str | None, calls: list[Site]) -> tuple[Act, cst.FunctionDef]:
    """The activation the entry's frame starts with, and its code: the function's own, or for a decorated
    function the outermost wrapper's (Dynamo's frame is the code the call runs first)."""
    root = decorated_root(walker, parsed, spec, fn, env, calls)
    if root is None:
        return Act(parsed, spec.qualname, env, cls=cls), fn
    walker.rename_root(root[1].name.value)
    return root


def _walk_again(project: Project, settings: DynamoSettings, spec: EntrySpec, fn: cst.FunctionDef, cls: str | None,
                calls: list[Site], prediction: Prediction, functions: Functions,
                walkers: list[Walker] | None = None) -> list[Event]:
    """The frame traced once more, for the compile the first of `calls` causes (its notes are the
    first walk's, not repeated); its walker added to `walkers` when given (the frames its breaks make, with
    that call's values; its resume functions, with the tensors they are handed)."""
    parsed = project.parsed(spec.display)
    if parsed is None:
        return []
    entry = f"{spec.display}:{spec.qualname}"
    walker = Walker(project, settings, entry, fn.name.value, ENTRY_BUDGET_S)
    functions.lend(walker)
    walker.grad_enabled = _traced_grad_mode(calls)
    walker.broken_call_sites = walkers is not None
    walker.entry_site = _project_call(project, calls)
    _seed_call_state(walker, calls)
    scratch = Prediction()
    try:
        env = entry_env(walker, parsed, spec, fn, calls)
        events = _walk_frame(walker, *_root_frame(walker, parsed, spec, fn, env, cls, calls), entry, scratch)
    except TooComplex as exc:
        scratch.cut_short |= exc.timed_out
        events = []
    prediction.cut_short |= scratch.cut_short
    if walkers is not None:
        walkers.append(walker)
    return events


def _kind_of(value: Any) -> str | None:
    """What a guard on an argument checks first, its type: a tensor, None, or a Python constant's type."""
    if value is None or value.kind == V.UNKNOWN:
        return None
    if value.kind == V.CONST:
        if value.known:
            return f"const:{type(value.value).__name__}"
        return f"const:{value.pytype}" if value.pytype else None
    return value.kind


def _retyping_call(calls: list[Site], fn: cst.FunctionDef) -> tuple[int | None, list[str]]:
    """The first call passing arguments of another type than the first call did, and their names."""
    params = [p.name.value for p in positional_params(fn)]
    for index, site in enumerate(calls[1:], 1):
        names = [name for name in params
                 if (before := _kind_of(site_value(calls[0], params, name)))
                 and (now := _kind_of(site_value(site, params, name))) and before != now]
        if names:
            return index, names
    return None, []


def _other_modules(calls: list[Site], fn: cst.FunctionDef, limit: int = 2) -> list[int]:
    """The calls whose receiver is a module of another structure than the earlier calls' (other
    children, other attribute values), at most `limit` of them."""
    params = [p.name.value for p in positional_params(fn)]
    if not params or not calls:
        return []
    seen: set[Any] = set()
    out: list[int] = []
    for index, site in enumerate(calls):
        receiver = site.kwargs.get(params[0])
        if receiver is None or receiver.kind != V.NN_MODULE:
            continue
        shape = _structure(receiver)
        if shape not in seen:
            seen.add(shape)
            if index:
                out.append(index)
    return out[:limit]


def _structure(value: Any, depth: int = 4) -> Any:
    """A module tree's structure and constants, comparable between two models."""
    if depth <= 0:
        return value.kind
    if value.kind == V.CONST:
        return (value.kind, repr(value.value) if value.known else value.pytype)
    if value.kind != V.NN_MODULE:
        return value.kind
    children = tuple(_structure(item, depth - 1) for item in value.items or ())
    attrs = tuple(sorted((name, _structure(attr, depth - 1)) for name, attr in value.attrs.items()))
    return (value.ref, children, attrs)


def _of_frame(recompiles: list[Event], frame: str) -> list[Event]:
    """The recompiles of one code object: the entry's own, or one resume function's."""
    return [e for e in recompiles if e.frame in (frame, None)]


def _traced_grad_mode(calls: list[Site]) -> bool | None:
    """The grad mode a compile is traced in: the first call's (grad on when no call is in sight)."""
    return calls[0].grad_enabled if calls else True


def _grad_modes(calls: list[Site]) -> list[bool]:
    """The grad modes a frame is called under, in order of first use (grad on when none is known)."""
    return list(dict.fromkeys(s.grad_enabled for s in calls if s.grad_enabled is not None)) or [True]


def _compiles_nothing(events: list[Event]) -> bool:
    """A frame Dynamo compiles no code for (its loop broke, or it returns having traced no op): it skips
    the frame from then on, so no guard of it is ever checked and nothing recompiles. One that breaks
    and resumes is compiled, its guards checked, even with no op in its graph."""
    frame = next((e for e in events if e.action is Action.FRAME), None)
    return frame is not None and frame.confidence == "high" and not frame.detail.get("compiled", True)


# the calls of a frame (a compiled entry, a callee frame) traced again, for the frames its breaks make and the
# tensors its resume functions are handed at each
MAX_BROKEN_CALLS = 8


def _trace_later_calls(calls: list[Site], traced: Container[int], trace: Callable[[int], object]) -> None:
    """Each later call not traced yet (by the cache replay), traced: the values its run hands the frames its
    breaks make and its resume functions."""
    for index in range(1, min(len(calls), MAX_BROKEN_CALLS)):
        if index not in traced:
            trace(index)


def _first_recompiling_call(calls: list[Site], recompiles: list[Event]) -> int | None:
    """The first call (after the first) at which a predicted recompile happens."""
    at = {(e.location.path, e.location.line) for e in recompiles if e.action is Action.RECOMPILE}
    return next((i for i, site in enumerate(calls[1:], 1) if (site.display, site.line) in at), None)


def _compiles(recompiles: list[Event], calls: list[Any], settings: DynamoSettings) -> int:
    """Compiles of the entry over the run the project shows: one, plus one per predicted
    recompile; a value that changes on every call recompiles on each call (up to the limit)."""
    if any(event.detail.get("every_call") for event in recompiles):
        # every call compiles again: the other guards that fail do so at calls already counted
        runs = sum(site.iterations for site in calls) if all(s.iterations for s in calls) and calls else None
        return min(runs, settings.recompile_limit) if runs else settings.recompile_limit
    compiles = 1
    for event in recompiles:
        compiles += int(event.detail.get("distinct", 1))  # one graph per new value, where they are counted
    return min(compiles, settings.recompile_limit)


def _walk_frame(walker: Walker, act: Act, fn: cst.FunctionDef, entry: str, prediction: Prediction) -> list[Event]:
    """Walk one compiled frame; its events, its FRAME event last."""
    display = act.display
    try:
        result = walker.run(act, fn.body)
    except TooComplex as exc:
        prediction.cut_short |= exc.timed_out
        prediction.notifications.append(Notification(
            "limit", f"{entry}: too complex to predict within the analyzer's budget; predictions for it are partial",
            Level.WARNING, Location(display, act.parsed.line(fn))))
        result = None
    except RecursionError:
        prediction.notifications.append(Notification(
            "limit", f"{entry}: nesting too deep to walk", Level.WARNING, Location(display, act.parsed.line(fn))))
        result = None
    events = list(result.events if result else walker.events)
    events.append(Event(
        Action.FRAME, Location(display, act.parsed.line(fn)), entry, frame=fn.name.value,
        confidence="medium" if result is None else "high",
        detail={"graph_count": result.graph_count if result else 0,
                "graph_frames": result.graph_frames if result else [],
                "graph_break_count": result.graph_break_count if result else 0,
                "frame_skipped": bool(result and result.frame_skipped),
                "compiled": bool(result and result.compiled), "code": f"{display}:{act.qualname}",
                "first_reads": {name: list(where) for name, where in walker.first_reads.items()}}))
    for note in (result.notes if result else walker.notes)[:20]:
        prediction.notifications.append(Notification("limit", f"{entry}: {note}", Level.NOTE))
    return events


# Frames compiled for callees that broke inside callees that broke ...: each level of a decorator chain is one
# (a transformers model's forward is three wrappers deep, and its layers' forwards three more).
MAX_CALLEE_DEPTH = 16


def _walk_callee_frames(project: Project, settings: DynamoSettings, frames: list[CalleeFrame],
                        prediction: Prediction, depth: int, grad_modes: list[bool], functions: Functions,
                        caches: WrapperCaches | None = None) -> None:
    """Callees whose inlining broke the graph run eagerly, and Dynamo compiles each as its own frame
    (under the grad modes its caller runs in, when eager code does not show its calls). `functions`:
    those of the walk that bound their arguments; `caches`: Dynamo's cache of each decorator wrapper's
    code object over the frames of the run."""
    if not frames:
        return
    caches = caches if caches is not None else WrapperCaches()
    known = {e.key for e in prediction.events}
    walked = {e.entry: e for e in prediction.events if e.action is Action.FRAME}
    done = {(e.entry, e.detail.get("code", e.frame)) for e in walked.values()}
    for frame in frames:
        entry = frame.entry
        # each code object is a frame of its own (two decorators' `wrapper`s are two); a decorator's chain
        # is one entry (the function it wraps)
        code = f"{frame.parsed.summary.display}:{frame.qualname}"
        if (entry, code) in done or depth > MAX_CALLEE_DEPTH:
            continue
        done.add((entry, code))
        walker = Walker(project, settings, entry, frame.fn.name.value, ENTRY_BUDGET_S)
        functions.lend(walker)
        calls = [f.call for f in frames if f.call is not None and f.qualname == frame.qualname
                 and f.parsed is frame.parsed]
        walker.replay_grad_modes = _grad_modes(calls) if calls else grad_modes or [True]
        walker.broken_call_sites = len(calls) > 1
        if calls:  # its trace runs under the grad mode of its first call (a layer called under no_grad)
            walker.grad_enabled = calls[0].grad_enabled is not False
            walker.entry_site = calls[0].reached_at
        later_callees: list[CalleeFrame] = []  # the frames the breaks of its later compiles make
        # the values of its call as they were then, not as later eager code left them (the next layer's run)
        called = replace(frame, args=V.snapshots(frame.call.kwargs)) if frame.call is not None else frame
        act = Act(frame.parsed, frame.qualname, called.env(), cls=frame.cls, closure=frame.frame_closure())
        walker.wrapper_frame = frame.fn.name.value if frame.linked is not None else None
        events = _walk_frame(walker, act, frame.fn, entry, prediction)
        for event in events:
            if event.action is Action.FRAME and frame.reached_from not in (None, entry):
                event.detail.setdefault("reached_from", frame.reached_from)  # its caller's call reaches it
        resumes: dict[int, list[Frame]] = {}  # the resume functions of each later call's trace
        retrace = functools.partial(_retrace_callee, project, settings, frame, entry, prediction, functions, calls,
                                    resumes)
        if frame.linked is not None:
            # a decorator's wrapper compiled for another function than before: it fails the earlier entries
            # (its guards are installed even when the trace put no op in a graph: measured)
            events += caches.compile(code, frame.fn, frame.linked[1], frame.args, frame.closure, entry,
                                     next(e.location for e in events if e.action is Action.FRAME))
        compiles = 1
        if (len(calls) > 1 or (calls and calls[0].in_loop)) and not _compiles_nothing(events):
            # called again by the eager frame (the next expert of a loop, the next token): its recompiles
            spec, guarded = _guarded_calls(frame, calls)
            recompiles = predict_recompiles(project, spec, settings, events, guarded, {}, entry, functions=functions)
            compiles = _compiles(recompiles, calls, settings)
            retraced: list[int] = []  # the graphs of each later compile the cache replay traced
            again = functools.partial(retrace, retraced, later_callees)
            if _first_recompiling_call(calls, recompiles) is not None:
                compiles = _replay_cache(project, settings, spec, frame.fn.name.value, guarded, {}, events, recompiles,
                                         again, functions)
            for event in events:
                if event.action is Action.FRAME:
                    # each compile traces its own graphs (the MoE block's break, then the dense block's none)
                    repeats = max(compiles - len(retraced), 1)
                    event.detail["graph_count"] = event.detail["graph_count"] * repeats + sum(retraced)
            _reached(recompiles, calls)
            events += recompiles
        resumed = walker.frames[1:]
        handed = len(calls) > 1 and any(f.used for f in resumed) and not _compiles_nothing(events)
        if handed or any(f.call is not None for f in walker.callee_frames):
            # a call its cache serves (or that compiles nothing: a decorator's wrapper) still runs its breaks'
            # callees, each a frame called again with that call's values (the next layer's: the cache the
            # previous one filled; the next call's: a longer sequence), and its resume functions
            _trace_later_calls(calls, resumes, functools.partial(retrace, [], later_callees))
        if handed:
            changed = resumed_changes(resumed, resumes, calls, settings, entry,
                                      next(e.location for e in events if e.action is Action.FRAME))
            _reached(changed, calls)
            for event in events:
                if event.action is Action.FRAME and compiles == 1:
                    # each resume function's recompile traces its graph again (counted above when the frame's
                    # own recompiles traced its resume functions again)
                    event.detail["graph_count"] += len(changed)
            events += changed
        if entry in walked:  # another code object of an entry walked already: one FRAME event counts both
            first = walked[entry]
            for event in (e for e in events if e.action is Action.FRAME and e.entry == entry):
                first.detail["graph_count"] = first.detail.get("graph_count", 0) + event.detail.get("graph_count", 0)
            events = [e for e in events if e.action is not Action.FRAME or e.entry != entry]
        walked.update({e.entry: e for e in events if e.action is Action.FRAME})
        # the break itself is already reported at the same line from the caller's frame
        prediction.events.extend(e for e in _dedupe(events)
                                 if not (e.action is Action.GRAPH_BREAK and e.key in known))
        _walk_callee_frames(project, settings, [*walker.callee_frames, *later_callees], prediction, depth + 1,
                            walker.replay_grad_modes, Functions.of(walker), caches)


class _CallSites:
    """Calls of compiled callables, in their own module and in the modules importing
    them, found through an index of imported names (built once, not per entry)."""

    def __init__(self, project: Project, facts: dict[str, ModuleFacts]) -> None:
        self.project = project
        self.facts = facts  # grows when a configured entry's module is scanned late
        self.indexed: set[str] = set()
        self.importers: dict[str, list[tuple[str, str, str]]] = {}  # name -> (display, local, from module)

    def _index(self) -> None:
        for display in self.facts.keys() - self.indexed:
            self.indexed.add(display)
            for local, target in self.project.summaries[display].imports.items():
                module, _, name = target.rpartition(".")
                self.importers.setdefault(name, []).append((display, local, module))

    def over(self, facts: dict[str, ModuleFacts]) -> _CallSites:
        """The same index over `facts`, a copy of these facts that one walk grows."""
        self._index()
        copy = _CallSites(self.project, facts)
        copy.indexed = set(self.indexed)
        copy.importers = {name: list(found) for name, found in self.importers.items()}
        return copy

    def of(self, spec: EntrySpec) -> list[Site]:
        self._index()
        module = self.project.summaries[spec.display].module
        sites: list[Site] = []
        own = self.facts.get(spec.display)
        for name in sorted(spec.callables):
            if own is not None:
                sites += own.calls.get(name, [])
            for display, local, source in self.importers.get(name, []):
                if display != spec.display and module.endswith(source):
                    sites += self.facts[display].calls.get(local, [])
        return sorted(sites, key=lambda s: (s.display != spec.display, s.display, s.line, s.column))


def _dedupe(events: list[Event]) -> list[Event]:
    seen: set[tuple[Any, ...]] = set()
    out = []
    for event in events:
        key = (event.key, event.frame, event.guard_kind, event.location if event.action is Action.RECOMPILE else None)
        if key not in seen:
            seen.add(key)
            out.append(event)
    return out


__all__ = ["analyze", "parse_error_location", "Parsed"]
