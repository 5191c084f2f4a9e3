"""One attribution rule, static and runtime alike: a finding whose place is outside the project is
reported at the project line through which the compiled code was reached.

Most users compile a model they did not write (`torch.compile(model)` of a transformers model). Its
graph breaks, guards and recompiles live in the package's frames; what the user can change lives in
their script. So a finding of a frame of an installed package (an entry named by the file's absolute
path, as the static pass and the runtime both name them) is moved to the project line that reaches
it, the package's place kept in `Finding.library` (SARIF relatedLocations, the hover, the message:
`transformers/models/mixtral/modeling_mixtral.py:79 MixtralExperts.forward`). Which project line,
best first:

1. the runtime's: the innermost project frame of the eager stack torch compiled the frame under
   (`detail["reached_at"]`, runtime/events.py): the call that reached it, the second call for the
   recompile it caused;
2. the static pass's: the calls of the compiled callable (`EntryInfo.called_at`), else the line that
   compiles it (`compiled_at`);
3. a frame the walk compiled after a break inside inlined code (`MixtralDecoderLayer.forward`) has no
   EntryInfo: the entry whose walk inlined it reaches it.

Code of a project entry that runs inside a package (a compiled training step calling a model) is placed
as the walk places it, at the innermost project line of its inline chain, before the two traces are
joined; calls between a package's own functions are not news, for either trace."""

from __future__ import annotations

import ast
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path, PurePosixPath

from vtlint.analyzer import EntryInfo
from vtlint.bounded import MiB
from vtlint.findings import Evidence, Finding, Kind, Location, Related
from vtlint.source_functions import read_functions
from vtlint.trace import Action, Event, MergedEvent

# an install folder (`<site-packages>/` too), else the standard library's folder
_INSTALL_FOLDER = re.compile(r"^(?:(?:.*[/\\])?<?(?:site|dist)-packages>?|(?:.*[/\\])?lib[/\\]python3\.\d+)[/\\]")
MAX_SOURCE_BYTES = 16 * MiB  # the largest modeling file of transformers 5 is under 1 MB
SHOWN_OTHERS = 3  # the other frames a grouped recompile's message names; `entries` keeps them all


def in_project(path: str) -> bool:
    """Project files are named relative to the project root; an installed package's by its absolute path."""
    return not os.path.isabs(path)


def entry_path(entry: str) -> str:
    return entry.rpartition(":")[0]


def inside_install(path: str) -> str:
    """`transformers/models/mixtral/modeling_mixtral.py`: an installed file as its package names it (a file
    of the standard library, `_collections_abc.py`, as its module)."""
    return PurePosixPath(_INSTALL_FOLDER.sub("", Path(path).as_posix())).as_posix()


def _dotted(entry: str) -> str:
    """`<site>/transformers/models/mixtral/modeling_mixtral.py:MixtralExperts.forward` ->
    `transformers.models.mixtral.modeling_mixtral.MixtralExperts.forward`, as the walk names a library callee."""
    return f"{_module(entry_path(entry))}.{entry.rpartition(':')[2]}"


@lru_cache(maxsize=256)
def _functions(path: str) -> tuple[tuple[int, int, str], ...]:
    """(first line, last line, qualified name) of every function of a file, innermost last."""
    return tuple((f.def_line, f.end_line, f.qualname) for f in read_functions(Path(path), MAX_SOURCE_BYTES))


def function_at(path: str, line: int) -> str | None:
    """The qualified name of the innermost function of `path` that holds `line`."""
    holding = [(first, name) for first, last, name in _functions(path) if first <= line <= last]
    return max(holding)[1] if holding else None


def library_place(location: Location) -> Related:
    """The package's place, its message the function that holds it (`MixtralExperts.forward`)."""
    return Related(location, function_at(location.path, location.line) or "")


def place_text(place: Related) -> str:
    """`transformers/models/mixtral/modeling_mixtral.py:79 MixtralExperts.forward`, as a message names it."""
    where = f"{inside_install(place.location.path)}:{place.location.line}"
    return f"{where} {place.message}" if place.message else where


# -- before the join: runtime events of project entries, placed as the walk places them -------------


def as_the_walk_places(events: Iterable[Event]) -> list[Event]:
    """Runtime events of a project entry that Dynamo saw inside an installed package (the user's compiled
    step inlined a model): at the innermost project line of the inline chain, as the static walk reports
    them; the calls between the package's own functions dropped, as the walk drops them."""
    out = []
    for event in events:
        if in_project(event.location.path) or not in_project(entry_path(event.entry)):
            out.append(event)
            continue
        if event.action is Action.INLINE:
            continue
        user = [i for i, link in enumerate(event.chain) if in_project(link.location.path)]
        if not user:
            out.append(event)
            continue
        at = user[-1]
        place = {"path": event.location.path, "line": event.location.line, "column": event.location.column}
        out.append(event.with_(location=event.chain[at].location, chain=event.chain[:at],
                               detail={**event.detail, "library_site": f"{_module(event.location.path)}:"
                                       f"{event.location.line}", "library_place": place}))
    return out


def _module(path: str) -> str:
    """`transformers.models.mixtral.modeling_mixtral`: an installed file's module, as the walk names it."""
    return inside_install(path).removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def unreached(events: Iterable[Event]) -> set[str]:
    """The frames of installed packages the runtime compiled with no project frame on the stack (a package
    compiling its own code at import, a thread it started): no project line reaches them, nothing to act on."""
    return {e.entry for e in events if e.action is Action.FRAME and not in_project(entry_path(e.entry))
            and not e.detail.get("reached_at")}


# -- after the join: findings of library entries, at the project line that reaches them ---------------


class Attribution:
    """Which project line reaches each compiled entry of an installed package, and the findings moved there."""

    def __init__(self, entries: Iterable[EntryInfo], predicted: Iterable[Event],
                 texts: Mapping[str, str] | None = None) -> None:
        self.infos = {info.entry: info for info in entries}
        self.roots = _roots(self.infos, list(predicted))
        self.texts = texts or {}  # the project's sources, by display path: where the script built the config

    def site(self, item: MergedEvent) -> Location | None:
        """The project line through which `item`'s code was reached, best first (see the module docstring)."""
        for event in (item.observed, item.event):
            reached = event.detail.get("reached_at") if event is not None else None
            if isinstance(reached, dict) and isinstance(reached.get("path"), str) and \
                    isinstance(reached.get("line"), int):
                return Location(reached["path"], reached["line"])
        return self.static_site(item.event.entry)

    def static_site(self, entry: str) -> Location | None:
        info = self.infos.get(entry)
        if info is None:
            return next((site for root in self.roots.get(entry, ()) if (site := self.static_site(root))), None)
        return info.called_at[0] if info.called_at else info.compiled_at

    def apply(self, finding: Finding, item: MergedEvent) -> Finding:
        """`finding` at the project line that reaches it (an inlined call between a package's own functions
        too: SARIF keeps every result, the reports group them); unchanged when it is in the project or
        nothing in sight reaches it (an `--entry` naming a package's function)."""
        if in_project(finding.location.path):
            seen = (item.observed or item.event).detail.get("library_place")
            if not isinstance(seen, dict) or finding.library:  # a project entry's code in a package, seen there
                return finding
            return _in(finding, library_place(Location(seen["path"], seen["line"], seen.get("column", 1))))
        entry = finding.entry or item.event.entry
        if in_project(entry_path(entry)):  # a project entry's runtime fact read inside a package (a guard)
            info = self.infos.get(entry)
            site = info.location if info is not None else None
        else:
            site = self.site(item)
        if site is None:
            return finding
        moved = _in(finding.with_(location=site), library_place(finding.location))
        if finding.kind is Kind.BAKED_CONSTANT and of_config(finding.source):
            built = config_built_at(self.texts.get(site.path, ""), site.line)
            if built is not None:
                name, line = built
                what = f"the config `{name}` built here" if name else "the config built here"
                moved = moved.with_(related=(*moved.related, Related(Location(site.path, line), what)))
        return moved


def _in(finding: Finding, place: Related) -> Finding:
    return finding.with_(library=(place,), message=f"{finding.message} (in `{place_text(place)}`)")


# -- the config a package's baked constants come from, as the script built it ---------------------------

# transformers' models keep their config as `config`; diffusers' keep its values in `_internal_dict`
_CONFIG_STEP = re.compile(r"\.config\b|^L\['config'\]|\._internal_dict\b")
_SAME_OBJECT = frozenset({"eval", "train", "to", "cpu", "cuda", "half", "float", "bfloat16", "requires_grad_"})
_CONFIG_PLACE = re.compile(r"^the config(?: `(?P<name>[^`]+)`)? built here$")


def of_config(source: str | None) -> bool:
    """`L['self'].self_attn.config._attn_implementation_internal`: a value read from the model's config."""
    return bool(source and _CONFIG_STEP.search(source))


def config_place(finding: Finding) -> tuple[str | None, Location] | None:
    """The config's name and the script line that built it, when `Attribution.apply` found them."""
    for related in finding.related:
        if (named := _CONFIG_PLACE.match(related.message)) is not None:
            return named.group("name"), related.location
    return None


@lru_cache(maxsize=64)
def _tree(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def config_built_at(text: str, line: int) -> tuple[str | None, int] | None:
    """The config a compiled model was built from, followed back from the call at `line` of the script by
    its names: `compiled(input_ids=ids)` <- `compiled = torch.compile(model)` <- `model =
    MixtralForCausalLM(cfg).eval()` <- `cfg = MixtralConfig(...)`: (`cfg`, its line). The name is None for
    a config built in the constructor's call itself, or by it from its keywords (diffusers'
    `UNet2DModel(sample_size=16, ...)`); None when the names lead elsewhere (a parameter, a model loaded
    by name)."""
    tree = _tree(text) if text else None
    at = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.lineno <= line <= (n.end_lineno or n.lineno)] \
        if tree else []
    if tree is None or not at:
        return None
    model: ast.expr | None = at[0]  # the outermost call of the line: the compiled callable's, or torch.compile's
    built = False  # whether `model` is the expression that made the model (not the call that runs it)
    for _ in range(8):  # a few renames at most: `compiled` <- `model` <- `net`
        if isinstance(model, ast.Call) and _is_torch_compile(model.func) and model.args:
            model, built = model.args[0], True
        elif isinstance(model, ast.Call) and isinstance(model.func, ast.Attribute) and not model.args and \
                model.func.attr in _SAME_OBJECT | {"compile"}:
            model = model.func.value  # `.eval()`, `.to(device)`, `model.compile()`
        elif isinstance(model, ast.Call) and not built and isinstance(model.func, ast.Name):
            model, built = _value_of(tree, model.func.id, model.lineno), True  # `compiled(...)`: what `compiled` is
        elif isinstance(model, ast.Name):
            model, built = _value_of(tree, model.id, model.lineno), True
        else:
            break
    if not built or not isinstance(model, ast.Call):
        return None
    given = next((k.value for k in model.keywords if k.arg == "config"), model.args[0] if model.args else None)
    if given is None and model.keywords and _class_name(model.func)[:1].isupper():
        return None, model.lineno  # `UNet2DModel(sample_size=16, ...)`: its keywords are its config
    if isinstance(given, ast.Name):
        assigned = _assignment(tree, given.id, given.lineno)
        return (given.id, assigned.lineno) if assigned is not None else None
    return (None, given.lineno) if isinstance(given, ast.Call) else None


def _class_name(func: ast.expr) -> str:
    """`UNet2DModel` of `UNet2DModel(...)` and `diffusers.UNet2DModel(...)`; "" for other calls."""
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _is_torch_compile(func: ast.expr) -> bool:
    return isinstance(func, ast.Attribute) and func.attr == "compile" and isinstance(func.value, ast.Name) and \
        func.value.id == "torch"


def _assignment(tree: ast.Module, name: str, before: int) -> ast.Assign | None:
    """The last `name = ...` of the file above line `before` (the script's own straight-line code)."""
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and n.lineno < before
             and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    return max(found, key=lambda n: n.lineno, default=None)


def _value_of(tree: ast.Module, name: str, before: int) -> ast.expr | None:
    assigned = _assignment(tree, name, before)
    return assigned.value if assigned is not None else None


def _roots(infos: dict[str, EntryInfo], predicted: list[Event]) -> dict[str, list[str]]:
    """A library frame the walk compiled with no EntryInfo of its own -> the entries with one whose walk
    inlined (or tried to inline) its function, through other such frames."""
    named = {_dotted(e.entry): e.entry for e in predicted if not in_project(entry_path(e.entry))}
    calls: dict[str, set[str]] = {}
    for event in predicted:
        if event.action is Action.INLINE and event.callee and event.callee in named:
            calls.setdefault(event.entry, set()).add(named[event.callee])
        elif event.action is Action.FRAME and event.detail.get("reached_from"):
            calls.setdefault(event.detail["reached_from"], set()).add(event.entry)  # a comprehension's frame
    roots: dict[str, list[str]] = {}
    for root in sorted(infos):
        seen, todo = {root}, [root]
        while todo:
            for callee in calls.get(todo.pop(), ()):
                if callee not in seen:
                    seen.add(callee)
                    todo.append(callee)
                    roots.setdefault(callee, []).append(root)
    return roots


# -- one finding per compiled call site and cause -------------------------------------------------------

_TENSOR = re.compile(r"^tensor '.*' (?=\w+ mismatch)")  # TENSOR_MATCH's own words name the frame's tensor
_NAMED = re.compile(r"'[^']*'|\"[^\"]*\"|\bL\[[^\]]*\][\w.\[\]'\"]*|at index \d+")
_EVIDENCE_RANK = {Evidence.CONFIRMED: 0, Evidence.RUNTIME_ONLY: 1, Evidence.PREDICTED: 2, Evidence.REFUTED: 3}


def _reason(finding: Finding) -> str | None:
    """What fails, without the frame's own names: `tensor 'hidden_states' size mismatch at index 1.
    expected 8, actual 16` and `tensor 'x' size mismatch at index 0. expected 8, actual 16` are one reason.
    None for a finding that names no failing guard (a frame compiled N times)."""
    text = finding.guard or (finding.runtime.get("detail") or {}).get("failing_guard")
    if not text:
        return None
    return " ".join(_NAMED.sub("", _TENSOR.sub("tensor ", str(text))).split())


def _cause(finding: Finding) -> tuple[object, ...] | None:
    """The grouping key of a finding of a package's frame: its project line and cause (a recompile's reason;
    a break's id and place in the package, which frames before and after a break both meet); None for others."""
    if not finding.library and in_project(entry_path(finding.entry or "")):
        return None
    at = (finding.location.path, finding.location.line)
    if finding.kind is Kind.GRAPH_BREAK and finding.library:
        return (*at, finding.gb_id, finding.library[0].location.path, finding.library[0].location.line)
    reason = _reason(finding) if finding.kind is Kind.RECOMPILE else None
    return None if reason is None else (*at, finding.code, reason)


def per_cause(findings: list[Finding], compiled: frozenset[str] = frozenset()) -> list[Finding]:
    """The findings of the frames of a package reached at one project line, one per cause: a longer sequence
    fails the TENSOR_MATCH of a dozen frames, one recompile; a break in an expert's loop, seen by each frame
    Dynamo compiled around it, one break. The best evidence speaks for the group, and of equal evidence the
    entry the project compiled (`compiled`: the model's forward, before the frames its breaks made)."""
    groups: dict[tuple[object, ...], list[Finding]] = {}
    out: list[Finding] = []
    for finding in findings:
        key = _cause(finding)
        if key is None:
            out.append(finding)
        else:
            groups.setdefault(key, []).append(finding)
    for members in groups.values():
        out.append(_one(sorted(members, key=lambda f: (_EVIDENCE_RANK[f.evidence], f.entry not in compiled,
                                                       f.sort_key))))
    return out


def _one(members: list[Finding]) -> Finding:
    head, rest = members[0], members[1:]
    if not rest:
        return head
    entries = tuple(dict.fromkeys(e for f in members for e in (f.entries or (f.entry,)) if e))
    library = tuple(dict.fromkeys(p for f in members for p in f.library))
    # one function's code objects (a decorator's wrapper, the function it wraps) are one name, counted
    named = Counter(f"`{f.source}` of `{(f.entry or '').rpartition(':')[2]}`" if f.source and f.kind is Kind.RECOMPILE
                    else f"`{(f.entry or '').rpartition(':')[2]}`" for f in rest)
    others = [name if times == 1 else f"{name} (×{times})" for name, times in named.items()]
    more = len(others) - SHOWN_OTHERS
    said = ", ".join(others[:SHOWN_OTHERS]) + (f" and {more} more" if more > 0 else "")
    message = f"{head.message}; the same in {len(rest)} more compiled frame{'s' if len(rest) > 1 else ''}: {said}"
    return head.with_(entries=entries if len(entries) > 1 else (), library=library, message=message)
