"""The project as the walk sees it: every module's summary, dotted-name lookup
across modules (and into installed packages, read from disk, never imported),
and the parsed trees with positions of the modules the walk enters."""

from __future__ import annotations

import ast
import functools
import importlib.machinery
import re
import sys
import sysconfig
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import libcst as cst

from vtlint.analyzer import reexports
from vtlint.analyzer.cache import Cache, code_key, digest
from vtlint.analyzer.chunks import READING, ChunkCache, Positions, parse_chunked, python_parse
from vtlint.analyzer.files import MAX_SOURCE_BYTES
from vtlint.analyzer.summary import (
    SETTER,
    ClassSummary,
    FunctionSummary,
    ModuleSummary,
    dotted,
    summarize,
    walk_statements,
)
from vtlint.bounded import read_text

if TYPE_CHECKING:
    from vtlint.analyzer.entries import ModuleFacts, Mutation

# Packages whose functions trace_rules decides on (graph nodes, skips): never inlined from source.
NOT_INLINED_ROOTS = ("torch", "builtins", "typing", "functools", "itertools", "collections", "abc", "enum", "dataclasses")
# ... except torch.nn's built-in modules, whose `__init__` and `forward` Dynamo runs and inlines
# (inline_inbuilt_nn_modules), and torch.optim's optimizers, whose `__init__` the object model
# walks; torch.nn.Module and torch.optim.Optimizer themselves stay external bases.
READ_FROM_TORCH = ("torch.nn.modules", "torch.optim")
_TORCH_BASES = frozenset({"torch.nn.modules.module"})
# Classes of modules read from torch that stay external all the same (their helpers are read)
EXTERNAL_CLASSES = frozenset({"torch.optim.optimizer.Optimizer"})
# ... and the standard library's Python mixins that user classes extend: Dynamo inlines
# `Mapping.get` and `Mapping.__contains__` of a `MutableMapping` subclass (measured). The
# name users import -> the file that defines it.
STDLIB_INLINED = {"collections.abc": "_collections_abc"}


@dataclass
class Parsed:
    """A module the walk enters: its tree, the positions of its nodes, its defs."""

    summary: ModuleSummary
    module: cst.Module
    positions: Positions
    functions: dict[str, cst.FunctionDef | cst.Lambda]
    classes: dict[str, cst.ClassDef]

    def line(self, node: cst.CSTNode) -> int:
        pos = self.positions.get(node)
        return pos.start.line if pos else 1

    def span(self, node: cst.CSTNode) -> tuple[int, int, int, int]:
        pos = self.positions.get(node)
        if pos is None:
            return (1, 1, 1, 1)
        return (pos.start.line, pos.start.column + 1, pos.end.line, pos.end.column + 1)


class _Defs(cst.CSTVisitor):
    """Function and class nodes by qualified name (same naming as the summary)."""

    def __init__(self) -> None:
        self.stack: list[tuple[str, str]] = []
        self.functions: dict[str, cst.FunctionDef | cst.Lambda] = {}
        self.classes: dict[str, cst.ClassDef] = {}

    def _qual(self, name: str) -> str:
        parts: list[str] = []
        for outer, kind in self.stack:
            parts += [outer, "<locals>"] if kind == "function" else [outer]
        return ".".join([*parts, name])

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        setter = any(dotted(d.decorator) == f"{node.name.value}.setter" for d in node.decorators)
        self.functions.setdefault(self._qual(node.name.value) + (SETTER if setter else ""), node)
        self.stack.append((node.name.value, "function"))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        if not self.stack and isinstance(node.value, cst.Lambda):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    self.functions.setdefault(target.target.value, node.value)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.setdefault(self._qual(node.name.value), node)
        self.stack.append((node.name.value, "class"))

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.stack.pop()


def parsed_module(summary: ModuleSummary, text: str, module: cst.Module | None = None,
                  positions: Positions | None = None) -> Parsed:
    """`positions` when the parse already placed the nodes (a chunked parse); else they
    are resolved on the first lookup."""
    module = module if module is not None else cst.parse_module(text)
    defs = _Defs()
    walk_statements(module.body, defs)
    return Parsed(summary, module, positions or Positions.of(module), defs.functions, defs.classes)


def _library_roots() -> list[Path]:
    roots = [Path(p) for p in sys.path if p and Path(p).is_dir() and "site-packages" in p]
    purelib = sysconfig.get_paths().get("purelib")
    if purelib and Path(purelib).is_dir() and Path(purelib) not in roots:
        roots.append(Path(purelib))
    return roots


@functools.lru_cache(maxsize=8192)
def _library_file(roots: tuple[tuple[str, int], ...], parts: tuple[str, ...]) -> Path | None:
    """Where an installed module's source is (`roots`: each site-packages folder and its mtime, so an
    install while the language server runs is seen); kept per process, as every analysis asks again."""
    for root, _ in roots:
        base = Path(root).joinpath(*parts)
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


@functools.lru_cache(maxsize=1024)
def _finds(roots: tuple[tuple[str, int], ...], name: str) -> bool | None:
    """Whether the import system finds top-level module `name` on the library roots (a package, a module,
    an extension, a namespace package), looked up on disk without importing it; None where an editable
    install's finder, which only the running interpreter consults, names it."""
    if importlib.machinery.PathFinder.find_spec(name, [root for root, _ in roots]) is not None:
        return True
    for root, _ in roots:
        for finder in Path(root).glob("__editable__*finder.py"):
            try:
                text = read_text(finder, MAX_SOURCE_BYTES, errors="replace")
            except OSError:
                return None
            if f"'{name}'" in text or f'"{name}"' in text:
                return None
    return False


@functools.lru_cache(maxsize=256)
def _distribution_version(roots: tuple[tuple[str, int], ...], normalized: str) -> str | None:
    for root, _ in roots:
        for info in Path(root).glob("*.dist-info"):
            if re.sub(r"[-_.]+", "_", info.name.removesuffix(".dist-info").rpartition("-")[0]).lower() != normalized:
                continue
            try:
                lines = read_text(info / "METADATA", MAX_SOURCE_BYTES, errors="replace").splitlines()
            except OSError:
                continue
            found = next((line.partition(":")[2].strip() for line in lines if line.startswith("Version:")), None)
            if found:
                return found
    return None


# Installed modules a process keeps (a transformers model's walk reads about 80, and parses 40 of them).
LIBRARY_MODULES_KEPT = 128


class _Installed:
    """An installed module as a process keeps it while the file is unchanged: every analysis of a
    long-lived process (the language server, a benchmark of many scripts) reads the same package. Its
    summary comes from the cache across runs when there is one; its tree is parsed (and positioned)
    only when a walk enters the module: most are read for their classes and imports alone."""

    def __init__(self, text: str, summary: ModuleSummary) -> None:
        self.text = text
        self.summary = summary
        self._parsed: Parsed | None = None
        self._failed = False

    def parsed(self) -> Parsed | None:
        if self._parsed is None and not self._failed:
            try:
                with READING.timed():
                    self._parsed = parsed_module(self.summary, self.text, cst.parse_module(self.text))
            except (cst.ParserSyntaxError, RecursionError):
                self._failed = True
        return self._parsed


_INSTALLED: OrderedDict[tuple[str, int, int, str], _Installed | None] = OrderedDict()


def _installed(path: str, mtime_ns: int, size: int, name: str, cache: Cache | None) -> _Installed | None:
    """The installed module at `path` (its mtime and size say whether it changed) imported as `name`."""
    key = (path, mtime_ns, size, name)
    if key in _INSTALLED:
        _INSTALLED.move_to_end(key)
        return _INSTALLED[key]
    found = _INSTALLED[key] = _read_installed(path, name, cache)
    if len(_INSTALLED) > LIBRARY_MODULES_KEPT:
        _INSTALLED.popitem(last=False)
    return found


def library_summary_key(path: str, name: str, text: str) -> str:
    """What an installed module's summary is made from: its content (so one entry per installed version of
    the package), its path (the summary's display) and module name, and the analyzer's code."""
    return digest("library summary", code_key(), path, name, text)


def _read_installed(path: str, name: str, cache: Cache | None) -> _Installed | None:
    try:
        with READING.timed():
            text = read_text(Path(path), MAX_SOURCE_BYTES)  # an installed file too: regular, of a bounded size
    except (OSError, UnicodeDecodeError):
        return None
    key = library_summary_key(path, name, text)
    summary = cache.get("library", key) if cache is not None else None
    if isinstance(summary, ModuleSummary):
        return _Installed(text, summary)
    try:
        with READING.timed():
            module = cst.parse_module(text)
    except (cst.ParserSyntaxError, RecursionError):
        return None
    summary = summarize(module, Path(path).as_posix(), text)
    summary.module = name
    if cache is not None:
        cache.put("library", key, summary)
    installed = _Installed(text, summary)
    installed._parsed = parsed_module(summary, text, module)  # parsed already: kept while the process keeps it
    return installed


def _roots_key(roots: list[Path]) -> tuple[tuple[str, int], ...]:
    key = []
    for root in roots:
        try:
            key.append((str(root), root.stat().st_mtime_ns))
        except OSError:
            continue
    return tuple(key)


MAX_MRO = 1024  # classes in one class's chain of bases (a real one has a few; 1,000 subclasses deep is followed)


class Project:
    def __init__(self, summaries: list[ModuleSummary], texts: dict[str, str], chunks: ChunkCache | None = None,
                 edited: frozenset[str] | set[str] = frozenset(), root: Path | None = None,
                 cache: Cache | None = None) -> None:
        self.summaries = {s.display: s for s in summaries}
        self.cache = cache  # where installed modules' summaries are kept across runs (None: not kept)
        self.texts = texts
        self._mentions: dict[tuple[str, bool], bool] = {}
        self._memo: dict[Any, Any] = {}  # what `memo_of` gives for a node of no reused chunk
        # the recompile pass's index of the scanned modules' assignments, with the facts it was built from
        self.assignments: tuple[tuple[ModuleFacts, ...], list[Mutation], dict[str, list[Mutation]]] | None = None
        self.chunks = chunks  # the parse kept warm for the `edited` files (the editor's buffers)
        self.edited = edited
        self.by_module: dict[str, ModuleSummary] = {}
        for summary in summaries:
            parts = summary.module.split(".")
            # `import seed` from a script beside it, or the full dotted path from the root; never as
            # torch (a `torch/` folder in the tree is linted, but torch is the installed one, whether
            # `check .` or `check model.py`)
            for i in range(len(parts)):
                if parts[i] != "torch":
                    self.by_module.setdefault(".".join(parts[i:]), summary)
        self._parsed: dict[str, Parsed | None] = {}
        self._library: dict[str, ModuleSummary | None] = {}
        self._installed: dict[str, _Installed] = {}  # display -> an installed module read (parsed on demand)
        self._splits: dict[str, tuple[ModuleSummary, str] | None] = {}
        self._stars: dict[tuple[str, str], str | None] = {}
        self._mros: dict[tuple[str, str], list[tuple[ModuleSummary, ClassSummary]]] = {}
        self.library_displays: set[str] = set()
        self.library_roots = _library_roots()
        self._roots_key = _roots_key(self.library_roots)
        self.root = root  # where the scripts run: the data files they read are looked up from here
        self.data_paths: set[str] = set()  # the data files the eager run asked about (variables/data_files)

    def mentions(self, word: str, whole: bool = False) -> bool:
        """Whether any checked file's text contains `word` (a setter it may call: `set_fastpath_enabled`;
        `whole`: as a word of its own, `"mps"` but not `steps`); the installed packages read for their
        source are not the project's."""
        key = (word, whole)
        found = self._mentions.get(key)
        if found is None:
            pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)") if whole else None
            found = self._mentions[key] = any(
                (pattern.search(text) is not None) if pattern else word in text
                for display, text in self.texts.items() if display not in self.library_displays)
        return found

    def memo_of(self, node: cst.CSTNode) -> dict[Any, Any]:
        """Where to keep what is derived from `node` alone: with the node's chunk in an editor's buffer
        (reused by the next lint while the statement is unchanged), else for this analysis only."""
        for display in self.edited:
            parsed = self._parsed.get(display)
            memo = parsed.positions.memo(node) if parsed is not None else None
            if memo is not None:
                return memo
        return self._memo

    def parsed(self, display: str) -> Parsed | None:
        if display not in self._parsed and display in self._installed:
            self._parsed[display] = self._installed[display].parsed()
        if display not in self._parsed:
            summary = self.summaries.get(display)
            text = self.texts.get(display)
            try:
                self._parsed[display] = self._parse(summary, text) if summary and text is not None else None
            except (cst.ParserSyntaxError, RecursionError, SyntaxError, ValueError):
                self._parsed[display] = None
        return self._parsed[display]

    def _parse(self, summary: ModuleSummary, text: str) -> Parsed:
        if self.chunks is None or summary.display not in self.edited:
            return parsed_module(summary, text)
        pieces = python_parse(text, summary.display, self.chunks, ast.parse).pieces
        module, positions = parse_chunked(text, pieces, summary.display, self.chunks)
        return parsed_module(summary, text, module, positions)

    def is_library(self, display: str) -> bool:
        """A module read from an installed package rather than one of the analyzed files."""
        return display in self.library_displays

    def adopt(self, parsed: Parsed) -> None:
        self._parsed[parsed.summary.display] = parsed

    # dotted-name lookup ------------------------------------------------------
    def split(self, dotted_name: str) -> tuple[ModuleSummary, str] | None:
        """`examples.seed.Config.scale` -> (summary of examples/seed.py, "Config.scale")."""
        if dotted_name in self._splits:
            return self._splits[dotted_name]
        found = None
        parts = dotted_name.split(".")
        for cut in range(len(parts), 0, -1):
            summary = self.by_module.get(".".join(parts[:cut])) or self._library_module(parts[:cut])
            if summary is not None:
                found = summary, ".".join(parts[cut:])
                break
        self._splits[dotted_name] = found  # asked for again and again by every walk and guard
        return found

    def library_module(self, name: str) -> ModuleSummary | None:
        return self._library_module(name.split("."))

    def installed(self, name: str) -> bool | None:
        """What `importlib.util.find_spec(name)` answers for a top-level module (an optional dependency's
        check): the standard library's, or one on the library roots; None where the roots cannot tell."""
        if name in sys.stdlib_module_names or name in sys.builtin_module_names:
            return True
        if not self._roots_key or not name.isidentifier():
            return None
        return _finds(self._roots_key, name)

    def installed_version(self, name: str) -> str | None:
        """What `importlib.metadata.version(name)` answers: the `Version:` of the distribution's metadata
        on the library roots, or None where none is found."""
        return _distribution_version(self._roots_key, re.sub(r"[-_.]+", "_", name).lower())

    def is_torch_module(self, dotted: str) -> bool:
        """Whether `dotted` names torch or one of its modules (not a class or function of one)."""
        parts = tuple(dotted.split("."))
        return dotted == "torch" or (parts[0] == "torch" and _library_file(self._roots_key, parts) is not None)

    def _library_module(self, parts: list[str]) -> ModuleSummary | None:
        """An installed package's module, summarised from its source on disk."""
        name = ".".join(parts)
        if name in self._library:
            return self._library[name]
        if name in STDLIB_INLINED:
            stdlib = Path(sysconfig.get_paths()["stdlib"], f"{STDLIB_INLINED[name]}.py")
            self._library[name] = self._load_library(stdlib, name) if stdlib.is_file() else None
            return self._library[name]
        from_torch = any(name == p or name.startswith(p + ".") for p in READ_FROM_TORCH) and name not in _TORCH_BASES
        if not parts or (parts[0] in NOT_INLINED_ROOTS and not from_torch) or parts[0] in sys.stdlib_module_names:
            return None
        path = _library_file(self._roots_key, tuple(parts))
        found = self._load_library(path, name) if path is not None else None
        self._library[name] = found
        return found

    def _load_library(self, path: Path, name: str) -> ModuleSummary | None:
        try:
            stat = path.stat()
        except OSError:
            return None
        installed = _installed(str(path), stat.st_mtime_ns, stat.st_size, name, self.cache)
        if installed is None:
            return None
        display = path.as_posix()
        self.library_displays.add(display)
        self.texts[display] = installed.text
        self.summaries.setdefault(display, installed.summary)
        self._installed[display] = installed
        self._parsed.pop(display, None)
        return installed.summary

    def star_binding(self, summary: ModuleSummary, name: str) -> str | None:
        """What `name` of `summary`'s module is through its star imports (`transformers.MixtralConfig`,
        re-exported lazily: the class of `...mixtral.configuration_mixtral`), or None."""
        if not summary.star_imports or not summary.module:
            return None
        key = (summary.module, name)
        if key not in self._stars:  # asked again by every read of the name
            self._stars[key] = reexports.binding(summary.module, name, self._module_file)
        return self._stars[key]

    def _module_file(self, name: str) -> Path | None:
        project = self.by_module.get(name)
        if project is not None and not self.is_library(project.display):
            return Path(project.display) if Path(project.display).is_absolute() else None
        parts = name.split(".")
        if parts[0] in NOT_INLINED_ROOTS or parts[0] in sys.stdlib_module_names:
            return None
        return _library_file(self._roots_key, tuple(parts))

    def function(self, dotted_name: str) -> tuple[ModuleSummary, FunctionSummary] | None:
        found = self._defining(dotted_name)
        if found and found[1] in found[0].functions:
            return found[0], found[0].functions[found[1]]
        return None

    def klass(self, dotted_name: str) -> tuple[ModuleSummary, ClassSummary] | None:
        found = self._defining(dotted_name)
        if found and found[1] in found[0].classes and f"{found[0].module}.{found[1]}" not in EXTERNAL_CLASSES:
            return found[0], found[0].classes[found[1]]
        return None

    def _defining(self, dotted_name: str, hops: int = 4) -> tuple[ModuleSummary, str] | None:
        """The module that defines a name, through package re-exports (`from .generic import
        ExplicitEnum` in `utils/__init__.py` makes `utils.ExplicitEnum` generic's class)."""
        found = self.split(dotted_name)
        if found is None or hops == 0:
            return found
        summary, rest = found
        if rest and rest not in summary.classes and rest not in summary.functions and rest in summary.imports:
            target = summary.imports[rest]
            if target != dotted_name:
                return self._defining(target, hops - 1) or found
        head, dot, tail = rest.partition(".")
        if head and head not in summary.classes and head not in summary.functions and head not in summary.imports \
                and head not in summary.globals:
            target = self.star_binding(summary, head)
            if target is not None and target != dotted_name:
                return self._defining(f"{target}{dot}{tail}", hops - 1) or found
        return found

    def mro(self, summary: ModuleSummary, cls: ClassSummary) -> list[tuple[ModuleSummary, ClassSummary]]:
        """The class and its project-local bases, depth first (enough for attribute lookup), each
        once and at most MAX_MRO of them. Each class's chain is made once, from its bases' chains,
        in a loop (a thousand subclasses deep is no recursion), a cycle cut where it closes: every
        attribute read and method lookup of the walk asks for it."""
        key = (summary.display, cls.qualname)
        stack = [(summary, cls, False)]
        entered: set[tuple[str, str]] = set()
        while stack:
            module, klass, bases_done = stack.pop()
            here = (module.display, klass.qualname)
            if here in self._mros or (here in entered and not bases_done):
                continue
            if bases_done:
                self._mros[here] = self._joined(module, klass)
                continue
            entered.add(here)
            stack.append((module, klass, True))
            stack += [(found[0], found[1], False) for found in self._bases(module, klass)]
        return self._mros[key]

    def _bases(self, summary: ModuleSummary, cls: ClassSummary) -> list[tuple[ModuleSummary, ClassSummary]]:
        return [found for base in cls.bases if (found := self.klass(self.qualify(summary, base))) is not None]

    def _joined(self, summary: ModuleSummary, cls: ClassSummary) -> list[tuple[ModuleSummary, ClassSummary]]:
        """`cls` before its bases' chains (made already, but for a base in a cycle), each class once."""
        chain = [(summary, cls)]
        seen = {(summary.display, cls.qualname)}
        for base in self._bases(summary, cls):
            for module, klass in self._mros.get((base[0].display, base[1].qualname), [base]):
                if (module.display, klass.qualname) not in seen and len(chain) < MAX_MRO:
                    seen.add((module.display, klass.qualname))
                    chain.append((module, klass))
        return chain

    def external_bases(self, summary: ModuleSummary, cls: ClassSummary) -> list[str]:
        """Dotted names of the bases outside the project (e.g. torch.nn.Module)."""
        out = []
        for mod, c in self.mro(summary, cls):
            for base in c.bases:
                if self.klass(self.qualify(mod, base)) is None:
                    out.append(base)
        return out

    def is_nn_module(self, summary: ModuleSummary, cls: ClassSummary) -> bool:
        return any(b.startswith("torch.nn") or b in ("nn.Module", "Module") for b in self.external_bases(summary, cls))

    def qualify(self, summary: ModuleSummary, name: str) -> str:
        """A name as written in `summary` (already import-resolved) -> a project-wide dotted name."""
        head = name.split(".")[0]
        local = head in summary.functions or head in summary.classes
        # a module-level variable, unless the name is a module's (`model = Net()` beside `from model import Net`)
        local = local or (head in summary.globals and self.split(name) is None)
        if local:
            return f"{summary.module}.{name}" if summary.module else name
        return name
