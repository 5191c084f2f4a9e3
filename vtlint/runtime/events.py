"""Runtime facts -> the observed trace: `vtlint.trace.Event`s following
docs/architecture.md, so that merging with the predicted trace is a join.

User files are read with `ast` (never imported) to recover the qualified name
of each compiled code object from its `co_name` and `co_firstlineno`."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import symtable
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath

from vtlint.bounded import MAX_SOURCE_BYTES, read_bytes
from vtlint.findings import Location, Related
from vtlint.runtime.structured_trace import (
    Compile,
    GraphBreak,
    Guard,
    InlineCall,
    RecompileReason,
    TraceFacts,
    literal_in_kernels,
)
from vtlint.source_functions import FunctionDef, read_functions
from vtlint.trace import Action, Event, entry_function, source_root

RESUME = re.compile(r"^torch_dynamo_resume_in_(?P<name>\w+?)_at_(?P<line>\d+)$")

# Guards that say what a value is; the others (dimension markings, dict
# membership, global state) are bookkeeping around them.
_VALUE_GUARDS = ("EQUALS_MATCH", "TRUE_MATCH", "FALSE_MATCH", "NONE_MATCH", "CONSTANT_MATCH", "LENGTH_CHECK",
                 "TENSOR_MATCH", "ID_MATCH", "TYPE_MATCH", "DICT_KEYS_MATCH", "DICT_VERSION")
# Guards that check a constant's value (a None's type is its value)
_SPECIALIZING = {"EQUALS_MATCH", "CONSTANT_MATCH", "TRUE_MATCH", "FALSE_MATCH", "NONE_MATCH", "ID_MATCH"}
_CONSTANT_TYPES = {"int", "float", "bool", "str", "NoneType", "complex", "bytes", "ellipsis",
                   "torch.dtype", "torch.device"}
_CONTAINERS = {"list": "ListVariable", "tuple": "TupleVariable", "dict": "ConstDictVariable",
               "collections.OrderedDict": "ConstDictVariable", "set": "SetVariable", "frozenset": "FrozensetVariable",
               "range": "RangeVariable"}
_TENSORS = {"torch.Tensor", "torch.nn.parameter.Parameter", "torch.nn.parameter.Buffer"}
_INTERNAL = ("__builtins_dict__", "___check", "__closure__")
# The defaults of torch.nn.Module's own methods, which Dynamo inlines and guards (`model.parameters()`:
# `L['model'].parameters.__defaults__`): torch's bookkeeping, not a value of the user's
_MODULE_API_DEFAULTS = re.compile(
    r"\.(?:parameters|named_parameters|buffers|named_buffers|children|named_children|modules|named_modules|"
    r"state_dict|train|eval|zero_grad|requires_grad_|to|apply|get_submodule|get_parameter|get_buffer|"
    r"register_buffer|register_parameter|register_module|add_module)\.__(?:kw)?defaults__\b")
_IMPORTED = "G['__import_"  # a global of another module, read through Dynamo's alias of that module
_INSTALLED = {"site-packages", "dist-packages"}  # a virtualenv inside the project is not project code
# torch's own frames (Dynamo, torch.nn's built-ins) are never entries: a built-in's attributes are
# credited at the line that calls it, as the inline hook reports its calls
_NEVER_ENTRIES = {"torch"}


# --- Source spellings ------------------------------------------------------


def _matching_paren(text: str, open_at: int) -> int:
    depth, quote = 0, ""
    for i in range(open_at, len(text)):
        ch = text[i]
        if quote:
            if ch == quote and text[i - 1] != "\\":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _unwrap_calls(source: str) -> str:
    """`___as_tensor(X)` -> X, `___odict_getitem(X, 'k')` -> X['k'],
    `dict(type(X).__dict__)['a']` and `dict(type(X).__mro__[1].__dict__)['a']` -> X.a (a class
    attribute read through X)."""
    for name in ("___as_tensor(", "___from_numpy(", "___odict_getitem(", "___tuple_iterator_getitem(", "dict(type("):
        start = source.find(name)
        while start != -1:
            close = _matching_paren(source, start + len(name) - 1)
            if close == -1:
                break
            inner = source[start + len(name): close]
            if name == "dict(type(":
                tail = source[close + 1:]
                # `.__mro__[1]`: the attribute is defined on a base class of X's type
                match = re.match(r"(?:\.__mro__\[\d+\])?\.__dict__\)\[(['\"])(\w+)\1\]", tail)
                if not match:
                    break
                replaced = f"{inner}.{match[2]}"
                source = source[:start] + replaced + tail[match.end():]
            elif name in ("___odict_getitem(", "___tuple_iterator_getitem("):
                obj, _, key = inner.rpartition(", ")
                source = source[:start] + f"{obj}[{key}]" + source[close + 1:]
            else:
                source = source[:start] + inner + source[close + 1:]
            start = source.find(name)
    return source


def normalize_source(source: str) -> str:
    """Dynamo's Source spelling -> the plain one a user reads:
    `dict(type(L['cfg']).__dict__)['scale']` -> `L['cfg'].scale`,
    `L['self']._modules['linear']` -> `L['self'].linear`, `G['f'].__code__` -> `G['f']`."""
    previous = None
    while previous != source:
        previous = source
        source = _unwrap_calls(source)
        source = re.sub(r"\.__dict__\[(['\"])([A-Za-z_]\w*)\1\]", r".\2", source)
        source = re.sub(r"\.(?:_modules|_parameters|_buffers)\[(['\"])([A-Za-z_]\w*)\1\]", r".\2", source)
        source = re.sub(r"\.__code__$", "", source)
    return source


def strip_local_scope(text: str) -> str:
    """What torch does to guard text in recompile reasons: `L['n']` -> `n`."""
    return re.sub(r"L\[\s*['\"](.*?)['\"]\s*\]", r"\1", text)


_KEYWORDS = {"not", "is", "None", "True", "False", "in", "and", "or", "len", "type", "isinstance", "hasattr", "G"}


def user_spelling_to_source(text: str) -> str:
    """The reverse of strip_local_scope, for reasons we cannot match against a
    guard tree: each bare name that starts a chain is a local (`L['n']`)."""
    def replace(match: re.Match[str]) -> str:
        name = match[1]
        return match[0] if name in _KEYWORDS or name.startswith("___") else f"L['{name}']"
    return re.sub(r"(?<![\w.'\"\]])([A-Za-z_]\w*)(?![\w(])", replace, text)


# A whole Source expression: L['x'] / G['x'] followed by .attr and [key] steps.
_SOURCE_CHAIN = re.compile(r"^[LG]\[(['\"])[^'\"]+\1\](?:\.[A-Za-z_]\w*|\[\d+\]|\[(['\"])[^'\"]*\2\])*$")


def _user_source(source: str | None) -> bool:
    """A value the user's code reads, not Dynamo's bookkeeping around it
    (`G['__builtins_dict___0']`, a module's `_modules` dict, an instance `__dict__`)."""
    if not source or source in ("L", "G") or not source.startswith(("L[", "G[")):
        return False
    if any(marker in source for marker in _INTERNAL) or _MODULE_API_DEFAULTS.search(source):
        return False
    return re.search(r"\.(?:_modules|_parameters|_buffers|__dict__)$", source) is None


def compared_source(text: str) -> str | None:
    """The Source a guard's text compares (`L['lr'] == 0.05`, `len(L['xs']) == 3`,
    `___check_type_id(L['k'], 9)`), when it is a plain chain of the user's values."""
    spelled = text if re.search(r"\b[LG]\[['\"]", text) else user_spelling_to_source(text)
    left = re.split(r" (?:==|is|!=) ", spelled, maxsplit=1)[0]
    left = re.sub(r"^(?:len|___check_type_id|___check_obj_id)\((.*?)(?:, \d+)?\)$", r"\1", left.strip())
    source = normalize_source(left)
    return source if _SOURCE_CHAIN.match(source) and _user_source(source) else None


# --- guards -> VariableTrackers --------------------------------------------


def variable_tracker_for(guard: Guard, kinds: set[str]) -> str:
    """The VariableTracker Dynamo wrapped this value as, from the manager's type."""
    type_name = guard.type_name or ""
    raw = guard.source or ""
    if raw.endswith(".__code__") or type_name in ("function", "code"):
        return "UserFunctionVariable"
    if type_name in _TENSORS or guard.kind == "TENSOR_MATCH":
        return "TensorVariable"
    if type_name in _CONSTANT_TYPES:
        if type_name in ("int", "float") and not kinds & {"EQUALS_MATCH", "CONSTANT_MATCH"}:
            return "SymNodeVariable"  # automatic dynamic: only the type is guarded now
        if type_name != "NoneType" and not kinds & _SPECIALIZING:
            # only its type checked (a flag the frame passes on to a call that breaks): its value is not in the
            # graph and another value does not recompile, so it is no baked constant
            return "LazyVariableTracker"
        return "ConstantVariable"
    if type_name in _CONTAINERS:
        return _CONTAINERS[type_name]
    if guard.module_like or type_name.startswith("torch.nn.modules."):
        builtin = type_name.startswith("torch.nn.")
        return "UnspecializedBuiltinNNModuleVariable" if builtin else "UnspecializedNNModuleVariable"
    if type_name == "type":
        return "UserDefinedClassVariable"
    return "UserDefinedObjectVariable"


_GUARD_RANK = {kind: rank for rank, kind in enumerate(
    ("EQUALS_MATCH", "TRUE_MATCH", "FALSE_MATCH", "NONE_MATCH", "CONSTANT_MATCH", "LENGTH_CHECK",
     "TENSOR_MATCH", "DICT_KEYS_MATCH", "DICT_VERSION", "ID_MATCH", "TYPE_MATCH"))}


def guard_value(guard: Guard) -> str | None:
    if guard.kind in ("TRUE_MATCH", "FALSE_MATCH"):
        return "True" if guard.kind == "TRUE_MATCH" else "False"
    if guard.kind == "NONE_MATCH":
        return "None"
    if guard.kind in ("EQUALS_MATCH", "CONSTANT_MATCH"):
        _, sep, value = guard.text.partition(" == ")
        return value.strip() if sep else None
    return None


# --- project files ---------------------------------------------------------


class ProjectFiles:
    """Absolute file names of the trace -> display paths under the project root,
    and code objects -> qualified names (by parsing, never importing)."""

    def __init__(self, root: Path, known: Iterable[str] = (), outside: Iterable[Path] = (),
                 library_frames: bool = False) -> None:
        self.root = root.resolve()
        # paths checked explicitly although outside the root (an installed package's file):
        # project code too, named as the static pass names them (relative to the root, `../`)
        self.outside = tuple(Path(os.path.normpath(p.resolve())) for p in outside)
        # every installed package's file (torch's excepted) is code of entries too, named by its
        # absolute path as the interpreter imported it: the static pass's name of a library module
        self.library_frames = library_frames
        self._defs: dict[str, list[FunctionDef]] = {}
        self._frees: dict[str, dict[tuple[str, int], tuple[str, ...]]] = {}
        self._calls: dict[str, dict[int, set[str]]] = {}
        self._lines: dict[str, list[str]] = {}
        self.known = sorted({str(Path(k)) for k in known if self.display(k)})

    def display(self, filename: str | None) -> str | None:
        """The POSIX path relative to the root, or None for a file outside it."""
        if not filename or filename.startswith("<"):
            return None
        path = Path(filename)
        if not path.is_absolute():
            path = self.root / path
        normal = Path(os.path.normpath(path))
        if any(normal == given or given in normal.parents for given in self.outside):
            return PurePosixPath(Path(os.path.relpath(normal, self.root))).as_posix()
        if _INSTALLED.intersection(path.parts):
            return normal.as_posix() if self.library_frames and self.installed(filename) else None
        try:
            rel = Path(os.path.normpath(path)).relative_to(self.root)
        except ValueError:
            return None
        return PurePosixPath(*rel.parts).as_posix() if rel.parts else None

    @staticmethod
    def installed(filename: str | None) -> bool:
        """A file of an installed package other than torch (`.../site-packages/transformers/...`)."""
        parts = Path(filename or "").parts
        cut = next((i for i, part in enumerate(parts) if part in _INSTALLED), None)
        return cut is not None and cut + 1 < len(parts) and parts[cut + 1] not in _NEVER_ENTRIES

    def resolve_tail(self, tail: str | None, prefer: str | None = None) -> str | None:
        """Guard and recompile comments print the file relative to a common
        prefix with torch's install, i.e. any tail of the real path."""
        if not tail:
            return None
        if prefer and prefer.endswith(tail):
            return prefer
        if os.path.isabs(tail) and self.display(tail):
            return tail
        matches = [k for k in self.known if k.endswith(tail)]
        if not matches and self.display(str(self.root / tail)) and (self.root / tail).is_file():
            return str(self.root / tail)
        return matches[0] if matches else None

    def line(self, filename: str, number: int) -> str:
        """Line `number` of a project file the trace names ("" for any other file): read as the
        analyzer reads sources, not by linecache, which reads a FIFO or /dev/zero without end."""
        if filename not in self._lines:
            try:
                text = importlib.util.decode_source(_read_source(Path(filename))) if self.display(filename) else ""
            except (OSError, SyntaxError, ValueError):
                text = ""
            self._lines[filename] = text.splitlines()
        lines = self._lines[filename]
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def functions(self, filename: str) -> list[FunctionDef]:
        if filename not in self._defs:
            self._defs[filename] = read_functions(Path(filename))
        return self._defs[filename]

    def qualname(self, filename: str, co_name: str, firstlineno: int | None) -> str | None:
        defs = self.functions(filename)
        for d in defs:
            if d.name == co_name and firstlineno in (d.first_line, d.def_line):
                return d.qualname
        named = [d for d in defs if d.name == co_name]
        return named[0].qualname if len(named) == 1 else None

    def enclosing(self, filename: str, name: str, line: int) -> FunctionDef | None:
        """The innermost function called `name` whose body holds `line` (for resume frames)."""
        candidates = [d for d in self.functions(filename) if d.name == name and d.first_line <= line <= d.end_line]
        return max(candidates, key=lambda d: d.first_line) if candidates else None

    def def_line(self, filename: str, qualname: str) -> int | None:
        return next((d.def_line for d in self.functions(filename) if d.qualname == qualname), None)

    def free_vars(self, filename: str, function: FunctionDef) -> tuple[str, ...] | None:
        """The function's free variables in `co_freevars` order (sorted, as CPython's compiler
        orders them; `__closure__[i]` is the cell of the i-th), read with `symtable`."""
        if filename not in self._frees:
            self._frees[filename] = _read_frees(Path(filename))
        found = self._frees[filename].get((function.name, function.def_line))
        return tuple(sorted(found)) if found is not None else None

    def called_names(self, filename: str, line: int) -> set[str]:
        """The plain names called on `line` (`func` of `return func(*args, **kwargs)`)."""
        if filename not in self._calls:
            self._calls[filename] = _read_calls(Path(filename))
        return self._calls[filename].get(line, set())

    def code(self, filename: str, name: str | None, firstlineno: int | None) -> FunctionDef | None:
        """The definition of a code object, inside the project or not (read, never imported)."""
        return next((d for d in self.functions(filename) if d.name == name and firstlineno in (d.first_line, d.def_line)),
                    None)


def _read_source(path: Path) -> bytes:
    """A file a trace names: a regular file of a source's size (a trace is untrusted input)."""
    return read_bytes(path, MAX_SOURCE_BYTES)


def _read_frees(path: Path) -> dict[tuple[str, int], tuple[str, ...]]:
    """(function name, def line) -> its free variables, for every function of the file."""
    try:
        table = symtable.symtable(importlib.util.decode_source(_read_source(path)), str(path), "exec")
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    found: dict[tuple[str, int], tuple[str, ...]] = {}
    tables = [table]
    while tables:
        current = tables.pop()
        if isinstance(current, symtable.Function):
            found[(current.get_name(), current.get_lineno())] = current.get_frees()
        tables.extend(current.get_children())
    return found


def _read_calls(path: Path) -> dict[int, set[str]]:
    """Line -> the plain names called there."""
    try:
        tree = ast.parse(_read_source(path), filename=str(path))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    calls: dict[int, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            calls.setdefault(node.func.lineno, set()).add(node.func.id)
    return calls




# --- where a Source is read ------------------------------------------------

# Types whose ID_MATCH says which function, class or module a name is bound to
# (`torch.softmax`, `torch.no_grad`): identity, not a value baked into the graph.
_IDENTITY_TYPES = {"function", "builtin_function_or_method", "method", "method-wrapper", "method_descriptor",
                   "wrapper_descriptor", "type", "module", "code", "functools.partial", "classmethod", "staticmethod"}


def _identity(guard: Guard) -> bool:
    type_name = guard.type_name or ""
    if type_name == "module":
        return True
    return guard.kind == "ID_MATCH" and (type_name in _IDENTITY_TYPES or type_name.endswith("Meta")
                                         or type_name.startswith(("torch._ops.", "torch._C.")))


@dataclass
class _Place:
    type_name: str | None
    where: tuple[str, int] | None = None  # (file, line) of the project code that read it


_STEP = re.compile(r"(?:\.[A-Za-z_]\w*|\[\d+\]|\[(['\"])[^'\"]*\1\])$")


def _parent_source(source: str) -> str | None:
    """`L['self'].drop.p` -> `L['self'].drop`; None for a bare local or global."""
    step = _STEP.search(source)
    return source[: step.start()] if step and step.start() > 0 and not re.fullmatch(r"[LG]", source[: step.start()]) else None


def _builtin_owner(source: str, places: dict[str, _Place]) -> dict[str, str] | None:
    """A hyper-parameter of a torch.nn built-in (`drop.p`, `bn.eps`): its module's Source and class."""
    parent = _parent_source(source)
    type_name = (places[parent].type_name or "") if parent in places else ""
    if not parent or not type_name.startswith("torch.nn.modules."):
        return None
    return {"source": parent, "type": f"torch.nn.{type_name.rpartition('.')[2]}"}


def _read_span(text: str, source: str) -> tuple[int, int] | None:
    """(column, end column), 1-based, of the read of `source` in one line: the
    whole spelling (`opts.gain`, `weights[1]`, a bare `k`), or its last steps (`self.scale`
    for `L['self'].mlp.scale` read inside the submodule)."""
    match = re.match(r"[LG]\[(['\"])(\w+)\1\]", source)
    if not text or not match:
        return None
    steps = [match[2], *re.findall(r"\.[A-Za-z_]\w*|\[[^\]]*\]", source[match.end():])]
    for start in range(len(steps)):
        tail = "".join(steps[start:])
        found = re.search(rf"(?<![\w.]){re.escape(tail)}(?!\w)" if start == 0 else rf"[\w.]*{re.escape(tail)}(?!\w)", text)
        if found:
            return found.start() + 1, found.end() + 1
    return None


@dataclass(frozen=True)
class WrapperLink:
    """A compiled wrapper (`functools.wraps`, a transformers decorator) whose frame
    calls the project function `entry` with its own arguments passed through."""

    entry: str
    wrapper: FunctionDef
    callee: FunctionDef
    # the callee's function object as the wrapper's frame reaches it, through the closures of
    # the chain: `L['func'].__closure__[1].cell_contents` (None when it could not be told)
    function: str | None = None

    def source(self, source: str) -> str | None:
        """The wrapper's Source spelled as the callee's: `L['args'][0]` -> `L['self']`,
        `L['kwargs']['k']` -> `L['k']`, a default the callee's parameter took
        (`L['func'].__closure__[1].cell_contents.__defaults__[8]`) -> that parameter (`L['labels']`);
        None for the wrapper's own locals."""
        match = re.match(r"L\[(['\"])(\w+)\1\]", source)
        if not match:
            return source
        name, rest = match[2], source[match.end():]
        params, wrapper = self.callee.params, self.wrapper
        if self.function and source.startswith(self.function + "."):
            return self._default(source[len(self.function):])
        if name in wrapper.params:
            index = wrapper.params.index(name)
            return f"L['{params[index]}']{rest}" if index < len(params) else None
        if name == wrapper.varargs and (item := re.match(r"\[(\d+)\]", rest)):
            index = len(wrapper.params) + int(item[1])
            return f"L['{params[index]}']{rest[item.end():]}" if index < len(params) else None
        if name == wrapper.varkw and (key := re.match(r"\[(['\"])(\w+)\1\]", rest)):
            return f"L['{key[2]}']{rest[key.end():]}"
        return None

    def _default(self, rest: str) -> str | None:
        """`.__defaults__[k]` -> the k-th parameter with a default; `.__kwdefaults__['k']` -> `k`.
        Dynamo reads a default only for a parameter the call left out, so the value is the
        parameter's. The function's other attributes (its `__code__`, the tuple itself) are
        the wrapper's bookkeeping: None."""
        params, callee = self.callee.params, self.callee
        if item := re.match(r"\.__defaults__\[(\d+)\]", rest):
            index = len(params) - callee.defaults + int(item[1])
            return f"L['{params[index]}']{rest[item.end():]}" if callee.defaults and 0 <= index < len(params) else None
        if key := re.match(r"\.__kwdefaults__\[(['\"])(\w+)\1\]", rest):
            return f"L['{key[2]}']{rest[key.end():]}"
        return None


# --- the conversion --------------------------------------------------------


@dataclass
class EntryCoverage:
    """How the run exercised one compiled entry."""

    entry: str
    compiles: int = 0  # compiles of the entry's own frame
    frames: dict[str, int] = field(default_factory=dict)  # code name -> compiles (resume frames included)
    graph_count: int = 0
    op_count: int = 0
    graph_breaks: int = 0
    recompile_limit_hit: bool = False
    frame_skipped: bool = False
    kernels: list[str] = field(default_factory=list)  # Inductor kernels generated for it
    via: dict[str, str] = field(default_factory=dict)  # wrapper code name -> its file, when Dynamo compiled a wrapper

    def to_dict(self) -> dict[str, object]:
        return {
            "entry": self.entry, "compiles": self.compiles, "frames": dict(self.frames),
            "graph_count": self.graph_count, "op_count": self.op_count, "graph_breaks": self.graph_breaks,
            "recompile_limit_hit": self.recompile_limit_hit, "frame_skipped": self.frame_skipped,
            "kernels": list(self.kernels), "via": dict(self.via),
        }


@dataclass
class Observed:
    """The observed trace of a run, with what it exercised."""

    events: list[Event]
    coverage: dict[str, EntryCoverage]
    torch_version: str | None = None
    problems: list[str] = field(default_factory=list)
    unlinked: list[dict[str, object]] = field(default_factory=list)  # compiled code no project entry owns, and why

    @cached_property
    def _functions(self) -> set[tuple[str, str]]:
        return {(entry.rpartition(":")[0], entry_function(entry)) for entry in self.coverage}

    @cached_property
    def _scope(self) -> dict[str, set[str]]:
        """Entry -> the locals and globals its compiled frames guarded."""
        scope: dict[str, set[str]] = {}
        for event in self.events:
            if event.source and event.action in (Action.WRAP, Action.RECOMPILE):
                scope.setdefault(event.entry, set()).add(source_root(event.source))
        return scope

    def exercised(self, event: Event) -> bool:
        """Whether the run compiled the entry the predicted event belongs to and, for
        an event with a Source, had that Source's local or global in scope: only then
        can the absence of the event refute it."""
        entry = event.entry
        if entry not in self.coverage:
            path = entry.rpartition(":")[0] or event.location.path
            if (path, entry_function(entry)) not in self._functions:
                return False
            entry = next(e for e in self.coverage if (e.rpartition(":")[0], entry_function(e)) == (path, entry_function(entry)))
        if not event.source or event.action not in (Action.WRAP, Action.RECOMPILE):
            return True
        if event.action is Action.RECOMPILE and entry in self._recompiled:
            return False  # Dynamo names only the first failing guard: this change may hide behind it
        return source_root(event.source) in self._scope.get(entry, set())

    @cached_property
    def _recompiled(self) -> set[str]:
        return {e.entry for e in self.events if e.action is Action.RECOMPILE}


class _Converter:
    def __init__(self, facts: TraceFacts, files: ProjectFiles) -> None:
        self.facts = facts
        self.files = files
        self.by_id = {(c.log, c.generation, c.compile_id): c for c in facts.compiles}
        self.links = self.wrapper_links(facts.inlines)

    # entries

    def wrapper_links(self, calls: Iterable[InlineCall]) -> dict[tuple[str | None, str | None, int | None, str | None],
                                                                 WrapperLink]:
        """Compiled code that only passes its `*args`/`**kwargs` on to a project function:
        a decorator's closure, or any such code outside the project (an installed
        package's decorator), possibly through more such wrappers (transformers'
        `can_return_tuple` wrapper -> `deprecate_kwarg`'s `wrapped_func` -> `forward`).
        The first project function the chain inlines names it."""
        # per compile: one wrapper's code (`deprecate_kwarg`'s `wrapped_func`) wraps many functions, and each
        # compile of it is of one of them (the one its closure holds then)
        by_root: dict[tuple[str | None, str | None, int | None, str | None], list[InlineCall]] = {}
        for call in calls:
            key = (call.root_file, call.root_name, call.root_firstlineno, call.compile_id)
            by_root.setdefault(key, []).append(call)
        links: dict[tuple[str | None, str | None, int | None, str | None], WrapperLink] = {}
        for key, made in by_root.items():
            root_file, root_name, root_line, _ = key
            wrapper = self.files.code(root_file or "", root_name, root_line)
            if wrapper is None or not (wrapper.varargs or wrapper.varkw):
                continue
            if self.files.display(root_file) and "<locals>" not in wrapper.qualname:
                continue  # a project function of its own, not a decorator's wrapper
            link = self._first_project_callee(made, (root_file, root_name), wrapper)
            if link is not None:
                links[key] = link
        return links

    def _first_project_callee(self, made: list[InlineCall], root: tuple[str | None, str | None],
                              wrapper: FunctionDef) -> WrapperLink | None:
        # the frames that only pass their arguments on -> (their definition, the Source of their function)
        passing: dict[tuple[str | None, str | None], tuple[FunctionDef, str | None]] = {root: (wrapper, None)}
        for call in made:
            caller = passing.get((call.caller_file, call.caller_function))
            if caller is None:
                continue
            callee = self.files.code(call.callee_file, call.callee_name, call.callee_firstlineno)
            function = self._called_function(call, *caller)
            library = self.files.library_frames
            if library and function is None:
                continue  # where every package is code of entries, the wrapped function is the one closed over
            callee_display = self.files.display(call.callee_file)
            if callee_display and callee and not (library and _passes_on(callee)):
                return WrapperLink(f"{callee_display}:{callee.qualname}", wrapper, callee, function)
            if callee is not None and (callee.varargs or callee.varkw):
                passing.setdefault((call.callee_file, call.callee_name), (callee, function))
        return None

    def _called_function(self, call: InlineCall, caller: FunctionDef, caller_source: str | None) -> str | None:
        """The Source of the function object `call` calls, when the caller calls a free
        variable of its own (a decorator's `func`): in the compiled frame itself `L['func']`,
        in a function that frame inlined `<its Source>.__closure__[i].cell_contents`, i its
        index in `co_freevars`. None when the call names anything else, or several names."""
        frees = self.files.free_vars(call.caller_file, caller)
        if not frees:
            return None
        names = self.files.called_names(call.caller_file, call.caller_line) & set(frees)
        if len(names) != 1:
            return None
        name = names.pop()
        if (call.caller_file, call.caller_function) == (call.root_file, call.root_name):
            return f"L['{name}']"  # the compiled frame's own free variable
        return f"{caller_source}.__closure__[{frees.index(name)}].cell_contents" if caller_source else None

    def link_of(self, filename: str | None, name: str | None, firstlineno: int | None,
                compile_id: str | None = None) -> WrapperLink | None:
        """The function a compiled wrapper passes its arguments to, in the compile `compile_id`; with no
        compile named, the code object's when all its compiles link to one function."""
        found = self.links.get((filename, name, firstlineno, compile_id)) or \
            self.links.get((filename, name, firstlineno, None))  # calls recorded without their compile
        if found is None and compile_id is None:
            linked = {link.entry: link for (f, n, line, _), link in self.links.items() if (f, n, line) == (
                filename, name, firstlineno)}
            found = next(iter(linked.values())) if len(linked) == 1 else None
        return found

    def entry_of(self, compile: Compile) -> tuple[str, str] | None:
        """(entry, code name) of a compile in the project, or None."""
        return self.entry_for_code(compile.co_filename, compile.co_name, compile.co_firstlineno, compile.compile_id)

    def entry_for_code(self, filename: str | None, name: str | None, firstlineno: int | None,
                       compile_id: str | None = None) -> tuple[str, str] | None:
        """The entry a code object belongs to: itself, or for a resume function
        (`torch_dynamo_resume_in_f_at_9`) the function `f` it resumes, or for a
        wrapper the function it passes its arguments to (in that compile)."""
        link = self.link_of(filename, name, firstlineno, compile_id)
        if link is not None and name:
            return link.entry, name
        display = self.files.display(filename)
        if display is None or not name or filename is None:
            return None
        resume = RESUME.match(name)
        if resume:
            found = self.files.enclosing(filename, resume["name"], int(resume["line"]))
            qual = found.qualname if found else resume["name"]
        else:
            qual = self.files.qualname(filename, name, firstlineno) or name
        return f"{display}:{qual}", name

    def location(self, filename: str | None, line: int | None) -> Location | None:
        display = self.files.display(filename)
        return Location(display, line) if display and line else None

    def entry_location(self, compile: Compile, entry: str) -> Location:
        """The entry's `def` line; for a compiled wrapper, the linked function's (not the
        wrapper's first line, which is a line of another file)."""
        filename = compile.co_filename or ""
        display = entry.rpartition(":")[0]
        link = self.link_of(compile.co_filename, compile.co_name, compile.co_firstlineno, compile.compile_id)
        if link is not None and link.entry == entry:
            return Location(display, link.callee.def_line)
        line = self.files.def_line(filename, entry_function(entry)) or compile.co_firstlineno or 1
        return Location(display, line)

    # WRAP

    def wraps(self, compile: Compile, entry: str, frame: str) -> list[Event]:
        groups: dict[str, list[Guard]] = {}
        for guard in compile.guards:
            if (guard.source or "").endswith(".__code__") or _identity(guard):
                continue  # which function, class or module a name is: not a value the user bakes
            spelled = self.in_entry(compile, normalize_source(guard.source or ""))
            if guard.kind not in _VALUE_GUARDS or not _user_source(spelled):
                continue  # bookkeeping, or a wrapper's own local (a default the entry took is the entry's)
            if (guard.source or "").startswith(_IMPORTED) and not self.project_module(guard.source or ""):
                continue  # a global of a library module (torch's own nn.Module hooks, ...)
            groups.setdefault(guard.source or "", []).append(guard)
        kernels = [k for out in compile.output_code for k in out.kernels]
        places = self.places(compile)
        events = []
        for raw, guards in groups.items():
            kinds = {g.kind for g in guards}
            best = min(guards, key=lambda g: _GUARD_RANK.get(g.kind, 99))
            source = self.in_entry(compile, normalize_source(raw))
            if source is None:
                continue  # a wrapper's own local (a decorator's argument), not the entry's
            where = self.read_location(source, places) or self.entry_location(compile, entry)
            value = guard_value(best)
            immediate = {"kernel_immediate": literal_in_kernels(value, kernels)} if kernels and value else {}
            immediate.update(self.stack_value(source, frame, compile))
            owner = _builtin_owner(source, places)
            events.append(Event(
                action=Action.WRAP, location=where, entry=entry, frame=frame, source=source,
                variable_tracker=variable_tracker_for(best, kinds), guard_kind=best.kind,
                guard=f"{best.kind}: {best.text.replace(raw, source)}",
                value=value,
                detail={"compile_id": compile.compile_id, "type": best.type_name, **immediate,
                        "guards": [g.spelled for g in guards], "dynamo_source": raw,
                        **({"builtin_module": owner} if owner else {}),
                        **({"hint": best.hint} if best.hint else {})},
            ))
        return events

    def places(self, compile: Compile) -> dict[str, _Place]:
        """Each Source the compile guarded -> its type and the project line that read it."""
        out: dict[str, _Place] = {}
        for guard in compile.guards:
            source = self.in_entry(compile, normalize_source(guard.source or ""))
            if not source:
                continue
            place = out.setdefault(source, _Place(guard.type_name))
            if place.where is None:
                filename = self.files.resolve_tail(guard.user_file, prefer=compile.co_filename)
                if self.files.display(filename) and guard.user_line:
                    place.where = (filename, guard.user_line)  # type: ignore[assignment]
        return out

    def read_location(self, source: str, places: dict[str, _Place]) -> Location | None:
        """Where the project reads the Source: the guard's own line when it is project
        code, else the line reading the nearest enclosing Source (a built-in module's
        `p` is read inside torch; `self.drop(y)` is the user's line), at the read's column."""
        probe: str | None = source
        while probe:
            place = places.get(probe)
            if place is not None and place.where is not None:
                filename, line = place.where
                display = self.files.display(filename)
                if display:
                    span = _read_span(self.files.line(filename, line), probe)
                    return Location(display, line, span[0], line, span[1]) if span else Location(display, line)
            probe = _parent_source(probe)
        return None

    def in_entry(self, compile: Compile, source: str) -> str | None:
        """The Source in the linked entry's own terms (a wrapper's `L['args'][0]` is the
        method's `L['self']`); unchanged for a compile of the entry itself. Globals too: the wrapper's
        frame reads the method's module through Dynamo's alias of it (`G['__import_pkg_dot_model'].X`,
        which the method's frame spells `G['X']`), and an installed wrapper's own globals directly."""
        link = self.link_of(compile.co_filename, compile.co_name, compile.co_firstlineno, compile.compile_id)
        if link is None:
            return source
        spelled = link.source(source)
        entry_file, root = link.entry.rpartition(":")[0], _installed_module(compile.co_filename or "")
        if spelled and (alias := re.match(r"G\['__import_(\w+?)'\]\.(\w+)", spelled)) and \
                _defines(entry_file, alias[1].replace("_dot_", ".")):
            return f"G['{alias[2]}']{spelled[alias.end():]}"
        if spelled and root and not _defines(entry_file, root) and (own := re.match(r"G\['(\w+)'\]", spelled)) and \
                not own[1].startswith("__import_"):
            return f"G['__import_{root.replace('.', '_dot_')}'].{own[1]}{spelled[own.end():]}"
        return spelled

    def project_module(self, source: str) -> bool:
        """`G['__import_pkg_dot_mod'].X`: whether pkg.mod is a module of the project."""
        match = re.match(r"G\['__import_(\w+?)'\]", source)
        if not match:
            return False
        parts = match[1].split("_dot_")
        for rel in (Path(*parts).with_suffix(".py"), Path(*parts, "__init__.py")):
            for base in (self.files.root, self.files.root / "src"):
                if (base / rel).is_file():
                    return True
            if any(k.endswith(os.sep + str(rel)) for k in self.files.known):
                return True
        return False

    def stack_value(self, source: str, frame: str, compile: Compile) -> dict[str, str]:
        """A resume frame's `L['___stack0']` is a value the code before the break
        computed eagerly (an `.item()` result): say which line computed it."""
        resume = RESUME.match(frame)
        if not resume or not source.startswith("L['___stack") or not compile.co_filename:
            return {}
        line = int(resume["line"])
        text = self.files.line(compile.co_filename, line).strip()
        where = f"computed eagerly at line {line} before the graph break"
        return {"stack_value": f"{where}: `{text}`" if text else where}

    def guard_location_of(self, filename: str | None, line: int | None, source: str | None) -> Location | None:
        """A user line a recompile reason names, at the read of `source` when it is there."""
        where = self.location(filename, line)
        span = _read_span(self.files.line(filename, where.line), source) if where and filename and source else None
        return Location(where.path, where.line, span[0], where.line, span[1]) if where and span else where

    # RECOMPILE

    def recompiles(self, compile: Compile, entry: str, frame: str) -> list[Event]:
        """One event per failing guard; the first reason is the most recent cache
        entry's, the one that caused this compile (`detail["cause"]`)."""
        events = []
        for index, reason in enumerate(compile.recompile_reasons):
            failed = self.by_id.get((compile.log, compile.generation, reason.failed_compile_id))
            spelled, kind, guard = self.match_reason(reason, failed)
            source = self.in_entry(compile, spelled) if spelled else None
            if guard and spelled and source and source != spelled:
                guard = guard.replace(spelled, source)
            filename = self.files.resolve_tail(reason.user_file, prefer=compile.co_filename)
            where = ((self.read_location(source, self.places(failed or compile)) if source else None)
                     or self.guard_location_of(filename, reason.user_line, source)
                     or self.entry_location(compile, entry))
            events.append(Event(
                action=Action.RECOMPILE, location=where, entry=entry, frame=frame, source=source,
                guard_kind=kind, guard=guard,
                detail={"failing_guard": reason.text, "compile_id": compile.compile_id,
                        "reason": (f"`{guard or reason.text}` failed at runtime and Dynamo recompiled "
                                   f"(compile {reason.failed_compile_id} -> {compile.compile_id})"),
                        "failed_compile_id": reason.failed_compile_id, "cause": index == 0,
                        **({"hint": reason.hint} if reason.hint else {})},
            ))
        return events

    @staticmethod
    def match_reason(reason: RecompileReason, failed: Compile | None) -> tuple[str | None, str | None, str | None]:
        """(source, guard kind, guard) of a failing guard, found by re-spelling the
        failed compile's guards the way recompile reasons print them."""
        wanted = " ".join(reason.text.split())
        for guard in failed.guards if failed else ():
            if " ".join(strip_local_scope(guard.text).split()) != wanted:
                continue
            if guard.kind == "DICT_CONTAINS":  # an attribute now shadows the guarded one
                attr = re.search(r"___dict_contains\((['\"])(\w+)\1, (.*)\.__dict__\)", guard.text)
                if attr:
                    return normalize_source(f"{attr[3]}.{attr[2]}"), guard.kind, guard.spelled
            raw = guard.source or ""
            source = normalize_source(raw) if _user_source(normalize_source(raw)) else None
            if source is None and guard.kind == "LAMBDA_GUARD":
                # a specialized number's guard (`L['lr'] == 0.05`) names its Source in its text
                return compared_source(reason.text), guard.kind, guard.spelled
            return source, guard.kind, f"{guard.kind}: {guard.text.replace(raw, source)}" if source else guard.spelled
        tensor = re.match(r"^tensor '(?P<name>.+?)' ", reason.text)  # TENSOR_MATCH's own words
        if tensor:
            source = normalize_source(user_spelling_to_source(tensor["name"]))
            return (source if _SOURCE_CHAIN.match(source) else None), "TENSOR_MATCH", None
        spelled = user_spelling_to_source(reason.text)
        attr = re.search(r"___dict_contains\((['\"])(\w+)\1, (.*)\.__dict__\)", spelled)
        if attr:
            return normalize_source(f"{attr[3]}.{attr[2]}"), "DICT_CONTAINS", None
        return compared_source(reason.text), None, None

    # GRAPH_BREAK

    def graph_break(self, gb: GraphBreak, compile: Compile, entry: str, resumes: set[str]) -> Event | None:
        stack = [f for f in gb.user_stack if self.files.display(f.filename)]
        where = self.location(gb.filename, gb.line)
        if where is None and stack:
            where = self.location(stack[-1].filename, stack[-1].line)
        if where is None:
            return None
        names = [f.name for f in gb.user_stack]
        start = max((i for i, n in enumerate(names) if n == compile.co_name), default=0)
        frames = gb.user_stack[start:]
        chain = tuple(
            Related(Location(display, f.line), f"calls {nxt.name}() here" + (f" ({f.code})" if f.code else ""))
            for f, nxt in zip(frames, frames[1:])
            if (display := self.files.display(f.filename))
        )
        in_loop = gb.gb_id == "GB7000" or any(gb_id == "GB7000" for _, gb_id in gb.also)
        sites = {(f.name, f.line) for f in gb.user_stack[start:]}
        resume = sorted(r for r in resumes if (m := RESUME.match(r)) and (m["name"], int(m["line"])) in sites)
        detail: dict[str, object] = {
            "explanation": gb.explanation, "hints": list(gb.hints), "compile_id": compile.compile_id,
            "in_loop": in_loop, "frame_skipped": gb.frame_skipped, "fullgraph": gb.fullgraph,
        }
        if resume:
            detail["resume"] = resume[0] if len(resume) == 1 else resume
        if gb.also:
            detail["also"] = [{"gb_type": t, "gb_id": i} for t, i in gb.also]
        gb_type = _registry_type(gb.gb_id) or gb.gb_type
        if gb_type != gb.gb_type:
            detail["printed_gb_type"] = gb.gb_type  # an older spelling torch still prints
        return Event(action=Action.GRAPH_BREAK, location=where, entry=entry, frame=compile.co_name or "",
                     gb_type=gb_type, gb_id=gb.gb_id, chain=chain, detail=detail)

    # INLINE

    def inline(self, call: InlineCall) -> Event | None:
        if self.link_of(call.root_file, call.root_name, call.root_firstlineno, call.compile_id) is not None and \
                (call.caller_file, call.caller_function) == (call.root_file, call.root_name):
            return None  # the wrapper's call of the entry it is linked to
        where = self.location(call.caller_file, call.caller_line)
        owner = self.entry_for_code(call.root_file, call.root_name, call.root_firstlineno, call.compile_id)
        if where is None or owner is None:
            return None
        callee_display = self.files.display(call.callee_file)
        if callee_display:
            qual = self.files.qualname(call.callee_file, call.callee_name, call.callee_firstlineno)
            callee = f"{callee_display}:{qual or call.callee_qualname}"
        else:
            callee = ".".join(p for p in (call.callee_module, call.callee_qualname) if p)
        return Event(action=Action.INLINE, location=where, entry=owner[0], frame=owner[1],
                     variable_tracker="UserFunctionVariable", callee=callee,
                     detail={"compile_id": call.compile_id, "caller": call.caller_function})


def _passes_on(function: FunctionDef) -> bool:
    """A decorator's closure that takes `*args`/`**kwargs` (transformers' `can_return_tuple`
    wrapper, `deprecate_kwarg`'s `wrapped_func`): a link in a chain, not the function at its end."""
    return "<locals>" in function.qualname and bool(function.varargs or function.varkw)


def _registry_type(gb_id: str | None) -> str | None:
    """The registry's current Gb_type of an id: the join key the static pass uses."""
    if gb_id is None:
        return None
    from vtlint.analyzer.breaks import registry

    entry = registry().get(gb_id)
    return entry.gb_type if entry else None


def _unique(events: Iterable[Event]) -> list[Event]:
    seen: set[tuple[object, ...]] = set()
    out = []
    for event in events:
        key = (*event.key, event.entry)
        if key not in seen:
            seen.add(key)
            out.append(event)
    return out


def _values_seen(events: list[Event]) -> list[Event]:
    """`detail["values"]`: every value a Source was guarded with, in compile order, when
    the run's compiles baked it with more than one (only the first compile's event is
    kept, and Dynamo names only the first failing guard of a recompile)."""
    seen: dict[tuple[object, ...], list[str]] = {}
    for event in events:
        values = seen.setdefault((*event.key, event.entry), [])
        if event.value is not None and event.value not in values:
            values.append(event.value)
    return [e.with_(detail={**e.detail, "values": values}) if len(values := seen[(*e.key, e.entry)]) > 1 else e
            for e in events]


def _count_recompiles(events: list[Event]) -> list[Event]:
    """`detail["recompiles"]`: how many compiles each failing guard caused."""
    caused: dict[tuple[object, ...], int] = {}
    for event in events:
        if event.detail.get("cause"):
            caused[event.key] = caused.get(event.key, 0) + 1
    return [e.with_(detail={**e.detail, "recompiles": caused.get(e.key, 0)}) for e in events]


def to_events(facts: TraceFacts, root: Path, outside: Iterable[Path] = (), *,
              library_frames: bool = False) -> Observed:
    """The observed trace of `facts`, with display paths relative to `root` (and to it, with
    `../`, for the `outside` paths checked explicitly). With `library_frames`, a frame compiled
    in an installed package (torch's excepted) is an entry too: `<absolute path>:<Qualified.name>`,
    its events at the library's lines."""
    known = set(facts.files()) | {c.caller_file for c in facts.inlines} | {c.callee_file for c in facts.inlines}
    files = ProjectFiles(root, known, outside, library_frames)
    conv = _Converter(facts, files)
    coverage: dict[str, EntryCoverage] = {}
    wraps, recompiles, breaks, frames = [], [], [], []
    resumes = {c.co_name for c in facts.compiles if c.co_name and RESUME.match(c.co_name)}
    unlinked: dict[tuple[str, str], dict[str, object]] = {}
    reach: dict[str, dict[str, object]] = {}  # a library entry -> the first project line that reached it
    for compile in facts.compiles:
        owner = conv.entry_of(compile)
        reached = _reached_at(compile, files) if owner and _installed_entry(owner[0]) else None
        if owner is None:
            if why := _why_unlinked(compile, files):
                item = unlinked.setdefault((compile.co_filename or "", compile.co_name or ""), why)
                item["compiles"] = int(item.get("compiles", 0)) + 1  # type: ignore[call-overload]
            continue
        entry, frame = owner
        cov = coverage.setdefault(entry, EntryCoverage(entry))
        if conv.link_of(compile.co_filename, compile.co_name, compile.co_firstlineno, compile.compile_id):
            cov.via[frame] = _shown_path(compile.co_filename or "", files)
        cov.frames[frame] = cov.frames.get(frame, 0) + 1
        cov.compiles += 0 if RESUME.match(frame) else 1
        cov.graph_count += 1 if compile.has_graph else 0
        cov.op_count += compile.graph_op_count or 0
        cov.recompile_limit_hit |= compile.recompile_limit_hit
        cov.frame_skipped |= any(gb.frame_skipped for gb in compile.graph_breaks)
        cov.kernels += [k.name for out in compile.output_code for k in out.kernels if k.name not in cov.kernels]
        if reached:
            reach.setdefault(entry, reached)
        wraps += _reached(conv.wraps(compile, entry, frame), reached)
        recompiles += _reached(conv.recompiles(compile, entry, frame), reached)
        breaks += _reached([e for gb in compile.graph_breaks
                            if (e := conv.graph_break(gb, compile, entry, resumes)) is not None], reached)
    breaks = _unique(breaks)
    for event in breaks:
        coverage[event.entry].graph_breaks += 1
    # an inlined call of a library frame is reached where its frame was first reached
    inlines = [e.with_(detail={**e.detail, "reached_at": reach[e.entry]}) if e.entry in reach else e
               for c in facts.inlines if (e := conv.inline(c)) is not None]
    for entry, cov in coverage.items():
        first = next(c for c in facts.compiles if (o := conv.entry_of(c)) and o[0] == entry)
        frame_name = next((f for f in cov.frames if not RESUME.match(f)), next(iter(cov.frames)))
        frames.append(Event(action=Action.FRAME, location=conv.entry_location(first, entry), entry=entry,
                            frame=frame_name, detail={**cov.to_dict(), "graph_break_count": cov.graph_breaks,
                                                      **({"reached_at": reach[entry]} if entry in reach else {})}))
    events = _unique([*frames, *_values_seen(wraps), *_count_recompiles(recompiles), *breaks, *inlines])
    return Observed(events, coverage, facts.torch_version, list(facts.problems), list(unlinked.values()))


def _installed_module(filename: str) -> str | None:
    """`transformers.utils.generic` of an installed file; None for any other."""
    parts = PurePosixPath(Path(filename).as_posix()).with_suffix("").parts
    at = max((i for i, part in enumerate(parts) if part in _INSTALLED), default=None)
    if at is None or at + 1 >= len(parts):
        return None
    inside = parts[at + 1:]
    return ".".join(inside[:-1] if inside[-1] == "__init__" else inside)


def _defines(filename: str, module: str) -> bool:
    """Whether `filename` is the file of the dotted `module` (`.../transformers/models/bert/modeling_bert.py`)."""
    parts = PurePosixPath(Path(filename).as_posix()).with_suffix("").parts
    dotted = ".".join(parts[:-1] if parts and parts[-1] == "__init__" else parts)
    return dotted == module or dotted.endswith("." + module)


def _installed_entry(entry: str) -> bool:
    """An entry of an installed package: named by its file's absolute path (project entries are relative)."""
    return Path(entry.rpartition(":")[0]).is_absolute()


def _reached_at(compile: Compile, files: ProjectFiles) -> dict[str, object] | None:
    """The project line torch compiled a frame of an installed package under: the innermost project frame
    of the eager stack (`dynamo_start`), i.e. the call of the compiled model in the user's script."""
    for frame in reversed(compile.stack):
        display = files.display(frame.filename)
        if display and not Path(display).is_absolute():
            return {"path": display, "line": frame.line}
    return None


def _reached(events: list[Event], reached: dict[str, object] | None) -> list[Event]:
    """`detail["reached_at"]`: where the project reached the code of a library frame (report/attribution.py)."""
    return [e.with_(detail={**e.detail, "reached_at": reached}) for e in events] if reached else events


def _shown_path(filename: str, files: ProjectFiles) -> str:
    """A display path, or an installed file from its package on (`instpkg/utils.py`)."""
    display = files.display(filename)
    if display:
        return display
    parts = Path(filename).parts
    cut = max((i for i, part in enumerate(parts) if part in _INSTALLED), default=len(parts) - 2)
    return PurePosixPath(*parts[cut + 1:]).as_posix()


def _why_unlinked(compile: Compile, files: ProjectFiles) -> dict[str, object] | None:
    """Compiled code outside the project that no project function could be linked to;
    None for torch's own frames and for code of no file."""
    filename = compile.co_filename or ""
    if not filename or filename.startswith("<") or f"{os.sep}torch{os.sep}" in filename:
        return None
    if files.display(filename) is None and not _INSTALLED.intersection(Path(filename).parts) and \
            not Path(filename).is_absolute():
        return None
    why = ("it is outside the project and Dynamo inlined no project function from its own frame"
           if files.display(filename) is None else "its code could not be matched to a definition")
    return {"code": compile.co_name or "", "file": _shown_path(filename, files), "why": why}
