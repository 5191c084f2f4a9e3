"""The symbolic walk: a static InstructionTranslator over LibCST statements.

Each compiled entry is walked statement by statement with abstract values
(`values.Value`) in place of VariableTrackers. A value from outside the graph
carries its Source; when traced code *uses* it (arithmetic, a comparison, a
branch, an argument to a torch function, an index) Dynamo realizes it and
installs a guard, and so does the walk: a WRAP event. Calls to the project's own
functions are inlined (INLINE events) with the arguments' Sources bound to the
parameters; calls outside the project ask `breaks` what trace_rules does. A
graph break ends the frame: the walk resumes in `torch_dynamo_resume_in_<fn>_at_<line>`
as Dynamo does, or gives up on the frame when a loop's jump back follows the break (loop_breaks);
a loop that resumes comes round to its resume function once per iteration, through its cache."""

from __future__ import annotations

import bisect
import functools
import operator
import sys
import time
from collections import ChainMap
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import libcst as cst

from vtlint.analyzer import breaks, comprehensions, loop_breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.bounds import ITEMS, MAX_ITEMS, Allowance, TooLarge, checked, described
from vtlint.analyzer.budget import checkpoint
from vtlint.analyzer.builder import Guard, VariableBuilder
from vtlint.analyzer.chunks import READING
from vtlint.analyzer.effects import patches, registers
from vtlint.analyzer.entries import Site
from vtlint.analyzer.index import STDLIB_INLINED, Parsed, Project
from vtlint.analyzer.objects import ObjectModel, children, container_kind, container_of
from vtlint.analyzer.sources import (
    AttrSource,
    GlobalSource,
    ImportedModuleSource,
    LocalSource,
    Source,
    attr_source,
    item_source,
)
from vtlint.analyzer.summary import (
    BINOPS,
    SETTER,
    ClassSummary,
    FunctionSummary,
    ModuleSummary,
    dotted,
    has_effects,
    literal,
    named_params,
    positional_params,
    pure_decorator,
    resolve,
    scalar_annotation,
)
from vtlint.analyzer.traverse import visit
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables import data_files, sets, versions
from vtlint.analyzer.variables.builtin import BUILTIN_NAMES, FAKE_ID
from vtlint.analyzer.variables.config_text import PARSERS
from vtlint.analyzer.variables.dicts import dict_of, set_item
from vtlint.analyzer.variables.library import DATA_PTR, PARTIAL, UNSPECIALIZED, is_torch_nn_class, partial_of
from vtlint.analyzer.variables.lists import NONEMPTY, RangeVariable
from vtlint.analyzer.variables.nn_module import parameters_of
from vtlint.analyzer.variables.optimizer import REALIZED, base_method
from vtlint.analyzer.variables.shapes import broadcast, elementwise, matmul, view, view_attrs, with_values
from vtlint.analyzer.variables.tensor import DTYPE_NAMES, HEALTHY, NDARRAY, ONE_OF, grad_of, known_sizes, tensor
from vtlint.analyzer.variables.user_defined import (
    DICT_STORAGE_METHODS,
    MODULE_METHODS,
    UserDefinedObjectVariable,
    dict_storage,
    is_dataclass,
    is_dict_subclass,
    qualified,
)
from vtlint.config import DynamoSettings
from vtlint.findings import Location, Related
from vtlint.trace import Action, Event

EAGER_RECURSION = 8  # calls of one function of the running script active at once (a walk over nested data)
LIBRARY_RECURSION = 2  # ... and of any other function run eagerly
MAX_DEPTH = 20  # inlining depth: Dynamo stops only at Python's recursion limit; transformers' MoE path nests past 12
MAX_ACTIVE = 28  # calls active at once, constructions included
MODULE_FRAME = "<module>"  # the qualname of a script's top level, walked eagerly by the driver
_T = TypeVar("_T")
MAX_UNROLL = 64  # loop iterations walked one by one
# ... of a comprehension run eagerly (a library's registry inverted at import: `{v: k for k, v in NAMES.items()}`)
MAX_EAGER_UNROLL = 4096
MAX_COMPREHENSION_STEPS = 4096  # ... and the eager steps one such comprehension may take (of MAX_EAGER_STEPS)
MAX_STEPS = 50_000  # statements per entry before "too complex"
MAX_EAGER_STEPS = 100_000  # statements of eager code (constructions, scripts) per walk

_AUGOPS = {
    cst.AddAssign: operator.add, cst.SubtractAssign: operator.sub, cst.MultiplyAssign: operator.mul,
    cst.DivideAssign: operator.truediv, cst.FloorDivideAssign: operator.floordiv, cst.ModuloAssign: operator.mod,
    cst.PowerAssign: operator.pow, cst.BitOrAssign: operator.or_, cst.BitAndAssign: operator.and_,
    cst.BitXorAssign: operator.xor, cst.LeftShiftAssign: operator.lshift, cst.RightShiftAssign: operator.rshift,
    cst.MatrixMultiplyAssign: operator.matmul,
}
_CMPOPS = {
    cst.Equal: operator.eq, cst.NotEqual: operator.ne, cst.LessThan: operator.lt, cst.LessThanEqual: operator.le,
    cst.GreaterThan: operator.gt, cst.GreaterThanEqual: operator.ge,
}


# A decorated entry's function, reached through its wrappers' closures in the root frame: the defaults
# its call leaves in place are named as its own locals (`L['use_cache']`), as the runtime names them.
FRAME_DEFAULTS = "frame_defaults"

# Calls that build a dict, evaluated where a module's or class's body makes one.
DICT_MAKERS = frozenset({"dict", "collections.OrderedDict"})


class TooComplex(Exception):
    """The entry exceeded the walk's budget: predictions stop, a notification says so.
    `timed_out` when the clock ran out (another run may finish), not the step count."""

    def __init__(self, timed_out: bool) -> None:
        super().__init__("timed out" if timed_out else "too many steps")
        self.timed_out = timed_out


class _Return(Exception):
    def __init__(self, value: Value) -> None:
        self.value = value


class _LoopBreak(Exception):
    pass


class _LoopContinue(Exception):
    pass


class _InlinedBreak(Exception):
    """A graph break inside an inlined callee: the caller's statement is the break."""


class _FrameSkipped(Exception):
    """A break inside a loop: Dynamo gives up on the whole frame."""


class _PartialGraph(Exception):
    """A break Dynamo cannot resume from: the graph so far is compiled, the rest runs eagerly."""


class _EagerTooLong(Exception):
    """Eager code (an object's construction, a script) went past its own step budget."""


class _GuessedBreak(Exception):
    """A graph break on a path the walk only guesses runs: that path ends, the frame does not."""


class _Raised(Exception):
    """A `raise` inside a `try` that handles it: Dynamo traces the jump to the handler."""

    def __init__(self, name: str | None) -> None:
        self.name = name


# Every way a walk of some code can end early; eager code (an `__init__`, a script) stops there.
WalkAborted = (_Return, _LoopBreak, _LoopContinue, _InlinedBreak, _FrameSkipped, _PartialGraph, _GuessedBreak, _Raised,
               _EagerTooLong, TooComplex)


@dataclass
class Frame:
    """A frame Dynamo compiles: the entry itself or a resume function."""

    name: str
    guarded: set[tuple[str, Source]] = field(default_factory=set)
    specialized: set[Source] = field(default_factory=set)  # floats an op took as Python scalars
    graph_ops: int = 0
    resumable_ops: int = 0  # graph ops at the start of the root statement being walked (a resumable state)
    resumable_events: int = 0  # ... and the events recorded by then
    first_event: int = 0  # the events recorded before this frame began
    compiled: bool = True  # False: a loop came round to a resume function its cache already holds, or past the limit
    eager_from: int = 0  # skipped, it runs eagerly from this line on (a resume inside a loop: the loop's first line)
    line: int = 0  # a resume function's: the line it resumes at
    handed: dict[str, Value] = field(default_factory=dict)  # a resume function's tensor locals, as it gets them
    used: set[str] = field(default_factory=set)  # the tensor locals its graph uses (each TENSOR_MATCH guarded)


@dataclass
class _Loop:
    """A loop of the root frame the walk is in: what a resume inside it hands the resume function."""

    stmt: cst.For | cst.While
    iterator: str | None = None  # loop_breaks.iterator_kind of a `for` (None: a `while`, or a kind not measured)
    elements: list[Value] = field(default_factory=list)  # a `for`'s items; `index`: the one being walked
    index: int = 0
    resumed_at: cst.CSTNode | None = None  # the break a resume function made inside it resumed after


@dataclass
class Act:
    """One activation: the entry's body or an inlined callee's."""

    parsed: Parsed
    qualname: str
    env: dict[str, Value]
    chain: tuple[Related, ...] = ()
    depth: int = 0
    loops: int = 0  # enclosing loops in this activation
    cls: str | None = None  # the class a method belongs to (dotted), for super()
    closure: dict[str, Value] = field(default_factory=dict)
    uncertain_base: int = 0  # the walk's guessed branches around this call: its own start above them
    yields: list[Value] | None = None  # a generator run eagerly: what it yields, in order
    yields_known: bool = True  # False once a yield ran on a guessed path (how many there are is not known)
    returned: list[Value] = field(default_factory=list)  # what paths the walk could not choose returned
    # a path the walk could not choose left the function above: what follows may never run
    left_early: bool = False
    declared_global: set[str] = field(default_factory=set)  # `global name`: a store is STORE_GLOBAL

    @property
    def display(self) -> str:
        return self.parsed.summary.display


@dataclass
class Building:
    """An nn.Module a traced frame constructs. Dynamo inlines its `__init__`: the first break there (a
    Parameter made of no input, GB0264) breaks the frame; the constructor then runs eagerly, and each
    `__init__` of the project's it enters is a frame of its own, whose module is not initialized yet."""

    sites: list[tuple[Act, cst.CSTNode]] = field(default_factory=list)  # the class calls in progress, outermost first
    broke: tuple[Act, cst.CSTNode, breaks.Decision, str] | None = None  # the first break, at the project's line
    inits: list[CalleeFrame] = field(default_factory=list)  # the `__init__`s run, in order


@dataclass
class CalleeFrame:
    """A callee whose inlining broke the graph: Dynamo compiles it as a frame of its own."""

    parsed: Parsed
    qualname: str
    fn: cst.FunctionDef
    args: dict[str, Value]  # as bound at the call
    cls: str | None
    call: Site | None = None  # where eager code called it, with the values it passed (a skipped frame's calls)
    closure: dict[str, Value] = field(default_factory=dict)
    # a decorator's wrapper: the function at the end of its closure chain, whose entry the frame is
    linked: tuple[Parsed, cst.FunctionDef, str] | None = None
    reached_from: str | None = None  # the entry whose walk made the call (where a report finds its caller)

    @property
    def entry(self) -> str:
        parsed, qualname = (self.linked[0], self.linked[2]) if self.linked else (self.parsed, self.qualname)
        return f"{parsed.summary.display}:{qualname}"

    def env(self) -> dict[str, Value]:
        """The callee's arguments are the new frame's locals: `L['param']`; a wrapper's are named as the
        parameters of the function it wraps (`L['hidden_states']` for `L['args'][0]`), as the runtime names
        a wrapper's frame after that function."""
        if self.linked is not None:
            return wrapper_locals(self.fn, self.args, self.linked[1])
        return {name: value.with_(source=LocalSource(name)) if value.kind != V.FUNC else value
                for name, value in self.args.items()}

    def frame_closure(self) -> dict[str, Value]:
        """The cells a wrapper's frame reads: the wrapped function's defaults are frame locals too."""
        return {name: value.with_(attrs={**value.attrs, FRAME_DEFAULTS: V.const(True)})
                if self.linked is not None and value.kind == V.FUNC else value for name, value in self.closure.items()}


def wrapper_locals(wrapper: cst.FunctionDef, bound: dict[str, Value], target: cst.FunctionDef) -> dict[str, Value]:
    """A wrapper's bound arguments (`self, *args, **kwargs`), each named as the parameter of `target` it
    fills: positionally in order, then by keyword."""
    names = [p.name.value for p in positional_params(target)]
    own = [p.name.value for p in positional_params(wrapper)]
    star = wrapper.params.star_arg.name.value if isinstance(wrapper.params.star_arg, cst.Param) else None
    starred = bound.get(star) if star else None
    positional = [bound[name] for name in own if name in bound] + list(starred.items or []) if starred else []
    env: dict[str, Value] = {}
    for index, name in enumerate(own):
        if name in bound:
            target_name = names[index] if index < len(names) else name
            env[name] = bound[name].with_(source=LocalSource(target_name)) if bound[name].kind != V.FUNC else bound[name]
    if star and starred is not None:
        items = [v.with_(source=LocalSource(names[i])) if i < len(names) else v
                 for i, v in enumerate(positional)][len(own):]
        env[star] = starred.with_(items=items, source=None)
    kwarg = wrapper.params.star_kwarg.name.value if wrapper.params.star_kwarg is not None else None
    if kwarg and kwarg in bound and bound[kwarg].keys is not None:
        given = bound[kwarg]
        env[kwarg] = given.with_(items=[v.with_(source=LocalSource(str(k))) for k, v in zip(given.keys, given.items or [])],
                                 source=None)
    for name, value in bound.items():
        env.setdefault(name, value.with_(source=LocalSource(name)) if value.kind != V.FUNC else value)
    return env


def wrapped_arguments(wrapper: cst.FunctionDef, bound: dict[str, Value], target: cst.FunctionDef) -> dict[str, Value]:
    """What a wrapper's call passes on, by the parameter of `target` each value fills (the frame's
    locals as the runtime names a wrapper's frame)."""
    out: dict[str, Value] = {}
    for value in wrapper_locals(wrapper, bound, target).values():
        spread = value.items if value.source is None and value.kind in (V.TUPLE, V.DICT) else [value]
        for item in spread or []:
            if isinstance(item.source, LocalSource):
                out.setdefault(item.source.local_name, item)
    return out


def wrapped_raw_names(wrapper: cst.FunctionDef, bound: dict[str, Value], target: cst.FunctionDef) -> dict[str, str]:
    """Where each local a wrapper's frame is reported by sits among the runtime's own (`L['hidden_states']`
    is `L['args'][0]`): torch checks their guards in that order. A `**kwargs` value is named by its place
    in the dict (`L['kwargs'][1]`), as torch's dict guard checks its items in the dict's order."""
    out: dict[str, str] = {}
    for name, value in wrapper_locals(wrapper, bound, target).items():
        if value.source is None and value.kind in (V.TUPLE, V.DICT):
            for index, item in enumerate(value.items or []):
                if isinstance(item.source, LocalSource):
                    out.setdefault(f"L['{item.source.local_name}']", f"L['{name}'][{index}]")
        elif isinstance(value.source, LocalSource) and value.source.local_name != name:
            out.setdefault(f"L['{value.source.local_name}']", f"L['{name}']")
    return out


def _factory_arguments(factory: cst.FunctionDef, call: cst.Call, defined: Parsed, written: Parsed) -> dict[str, Value]:
    """A decorator factory's parameters as `@factory(...)` passes them, where they are literals: the cells its
    wrapper reads (`@deprecate_kwarg("past_key_value", new_name="past_key_values")`: `old_name`, `new_name`;
    a default where the call passes nothing). Its other locals stay unknown: its body is not run."""
    found: dict[str, Value] = {}
    for param in [*factory.params.params, *factory.params.kwonly_params]:
        if param.default is not None:
            found[param.name.value] = literal(param.default, defined.summary.imports)
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if len(positional) + sum(1 for a in call.args if a.keyword is not None) != len(call.args):
        return {}  # `*args` or `**kwargs` passed on: which parameter gets what is not written
    passed = [*zip((p.name.value for p in factory.params.params), (a.value for a in positional)),
              *((a.keyword.value, a.value) for a in call.args if a.keyword is not None)]
    for name, node in passed:
        found[name] = literal(node, written.summary.imports)
    return {name: value for name, value in found.items() if value.kind == V.CONST and value.known}


def passes_on(fn: cst.FunctionDef | cst.Lambda, qualname: str) -> bool:
    """A decorator's closure that takes `*args`/`**kwargs` (transformers' `can_return_tuple` wrapper,
    `deprecate_kwarg`'s `wrapped_func`): a link in a chain, not the function at its end (the runtime's rule)."""
    return isinstance(fn, cst.FunctionDef) and "<locals>" in qualname and (
        isinstance(fn.params.star_arg, cst.Param) or fn.params.star_kwarg is not None)


@dataclass
class Functions:
    """The functions a walk's `def`s and lambdas made, by their `local:` ref: a value that goes on to
    another walk (an argument of a compiled call, of a callee frame) still names its code and cells."""

    defs: dict[str, tuple[Parsed, cst.CSTNode, dict[str, Value], str | None]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # their __qualname__

    @classmethod
    def of(cls, walker: Walker) -> Functions:
        return cls(dict(walker.local_funcs), dict(walker.local_names))

    def update(self, other: Functions) -> None:
        self.defs.update(other.defs)
        self.names.update(other.names)

    def lend(self, walker: Walker) -> None:
        """`walker` walks values made by the walk these came from."""
        walker.local_funcs.update(self.defs)
        walker.local_names.update(self.names)

    def closure(self, value: Value | None) -> tuple[cst.CSTNode, list[tuple[str, Value]]] | None:
        """The `def` (or lambda) a function value made here runs, and the cells it reads in `co_freevars`
        order (sorted by name)."""
        made = self.defs.get(value.ref or "") if value is not None and value.kind == V.FUNC else None
        if made is None or not isinstance(made[1], (cst.FunctionDef, cst.Lambda)):
            return None
        _, node, cells, _ = made
        own = {p.name.value for p in named_params(node)}
        return node, [(name, cells[name]) for name in sorted(_names_read(node)) if name in cells and name not in own]


@dataclass
class WalkResult:
    events: list[Event]
    graph_count: int
    graph_break_count: int
    graph_frames: list[str]  # the frames (the entry's, its resume functions) whose trace has a graph
    frame_skipped: bool
    notes: list[str]
    # the entry's own frame has compiled code and guards: not skipped, and traced ops or broke to resume (a
    # frame of no op that returns is skipped: "No ops traced for the FX graph")
    compiled: bool = True


class Walker:
    def __init__(self, project: Project, settings: DynamoSettings, entry: str, fn_name: str,
                 budget_s: float = 10.0) -> None:
        self.project = project
        self.settings = settings
        self.entry = entry
        self.fn_name = fn_name
        self.events: list[Event] = []
        self.frame = Frame(fn_name)
        self.builder = VariableBuilder(settings)
        self.objects = ObjectModel(self)
        # Python running outside Dynamo (an `__init__` of an object built before tracing, the
        # script that calls the compiled function): no guard, break, graph op or event
        self.eager = 0
        self.eager_steps = 0
        self.compiled: set[tuple[str, str]] = set()  # (display, qualname) of the compiled entries
        # the module objects compiled whole (`torch.compile(teacher)`), by entry: another instance of
        # the class (the student) runs its forward eagerly
        self.compiled_modules: dict[tuple[str, str], list[Value]] = {}
        self.compiled_functions: set[tuple[str, str]] = set()  # compiled as functions: every call
        self.recorded: list[tuple[tuple[str, str], Site]] = []  # their calls, when eager code makes them
        self.entered: set[tuple[str, str]] = set()  # (display, qualname) of every function the walk went into
        self.global_objects: dict[str, Value] = {}  # module globals holding objects ("display:name")
        self.module_envs: dict[str, dict[str, Value]] = {}  # modules whose top level the driver runs
        # what code run eagerly stored on a class (`cls.forward = forward` in a class decorator), by class:
        # entries of its `__dict__` that come before the class body's own
        self.class_stores: dict[str, dict[str, Value]] = {}
        self.decorated: set[str] = set()  # classes whose decorators the walk has applied
        self.created: set[str] = set()  # classes whose bases' `__init_subclass__` the walk has run
        # (id of a decorated def, decorator index) -> whether the decorator handed the function back unchanged
        self.unwrapped: dict[tuple[int, int], bool] = {}
        self.resolving: set[str] = set()  # imported names being resolved
        # entries eager code compiles: their options, and where (display, line) the compile is
        self.discovered: dict[tuple[str, str], tuple[dict[str, Any], str, int]] = {}
        self.frames: list[Frame] = [self.frame]
        self.steps = 0
        self.allowance = Allowance()  # elements it may still make in bulk
        self.deadline = time.monotonic() + budget_s
        self.read_before = READING.seconds
        self.timed_out = False  # the budget ran out (a result that depends on the machine's speed)
        self.notes: list[str] = []
        self.local_funcs: dict[str, tuple[Parsed, cst.CSTNode, dict[str, Value], str | None]] = {}
        self.inlining: list[tuple[str, str]] = []
        self.callee_frames: list[CalleeFrame] = []
        self.direct_calls: list[CalleeFrame] = []  # the calls a skipped frame makes that Dynamo compiles
        self.replaying = False  # running a skipped frame eagerly, for the calls it makes
        self.broken_call_sites = False  # a frame called more than once: the calls that break keep their values
        self.entry_site: Location | None = None  # the project's call of the compiled entry this walk traces
        self.uncompiled_calls = 0  # calls it makes whose frames Dynamo does not compile, active now
        self.broken_chain: list[CalleeFrame] = []  # the outermost reported call of an inlined break unwinding
        self.building: Building | None = None  # an nn.Module the traced frame constructs, being built
        # the root frame when it is a decorator's wrapper linked to the function it wraps (`can_return_tuple`'s):
        # its own calls are the entry's plumbing, no inlines, as the runtime reports them
        self.wrapper_frame: str | None = None
        self.comprehension_frames: list[comprehensions.ComprehensionFrame] = []  # ... and the comprehensions it runs
        self._comprehensions: dict[int, tuple[cst.CSTNode, str]] = {}  # (node, name) by id of its outer `for`
        self.comprehending = 0  # comprehensions being unrolled: one inside another is not a frame of the replay
        self.replay_grad_modes: list[bool] = [True]  # the grad modes the compiled calls run under, in order
        self.local_names: dict[str, str] = {}  # nested functions and decorator wrappers: their __qualname__
        self.function_sources: dict[tuple[str, str], Source] = {}  # each function's first Source in the frame
        self.module_sources: dict[str, Source] = {}  # each library module's first Source in the frame
        self.object_sources: dict[int, Source] = {}  # each nn.Module object's first Source in the frame
        # each class attribute's (and class object's) first Source in the frame; None: one with no user Source
        self.class_attr_sources: dict[tuple[str, str, str], Source | None] = {}
        self.grad_enabled: bool | None = True  # eager code's grad mode (torch.no_grad() blocks), None: unknown
        self.autocast: str | None = ""  # the dtype of the autocast region eager code is in ("": none, None: unknown)
        self.first_reads: dict[str, tuple[str, int, int]] = {}  # argument -> (display, line, column) of its first use
        self.stored: set[tuple[int, str]] = set()  # (id of an object's attrs, name) the traced frame assigned
        self.stack_depth = 0  # values waiting on the frame's operand stack (a resume function's ___stackN)
        self.handlers = 0  # enclosing `try` blocks with handlers, across inlined calls
        self.in_try = 0  # the frame's own enclosing `try` bodies and handlers: Dynamo cannot resume inside them
        self.generic_contexts = 0  # the frame's own `with` blocks of a user context manager: nor inside those
        self.init_chained = False  # an object's construction read some `__init__` (its base's, nn.Module's)
        # captured record_function blocks: a break inside one makes Dynamo rebuild the record_function's
        # type, which it refuses (GB0370 at the break's line), and the frame runs eagerly (measured)
        self.recording = 0
        # the root frame's GET_ITER / FOR_ITER running a user class's `__len__` / `__getitem__`: an
        # instruction Dynamo cannot resume at, so a break there skips the frame (measured)
        self.in_iteration = 0
        self.catching: list[frozenset[str]] = []  # what each enclosing `try`'s handlers catch, innermost last
        self.uncertain = 0  # enclosing branches the walk takes without knowing they run
        self.root: tuple[Parsed, cst.FunctionDef] | None = None  # the compiled frame's code, for its bytecode
        self.root_call: cst.CSTNode | None = None  # the root frame's call being inlined (where a break inside it is)
        self.root_loops: list[_Loop] = []  # the root frame's loops around the statement being walked
        self.bottom_tests: set[int] = set()  # `while` tests evaluated at the loop's end (their second copy)
        # resume functions a loop comes round to, by name and the node they resume after
        self.resume_caches: dict[tuple[str, int], loop_breaks.ResumeCache] = {}

    def rename_root(self, name: str) -> None:
        """The root frame runs other code than the entry's function (a decorator's wrapper): its name."""
        self.fn_name = self.frame.name = self.wrapper_frame = name

    @functools.cached_property
    def library_entry(self) -> bool:
        """The compiled frame is an installed package's (`torch.compile(model)` of a transformers model): its
        events stay where Dynamo sees them, in the package's files; a report places them at the user's line."""
        return self.project.is_library(self.entry.rpartition(":")[0])

    # events --------------------------------------------------------------------
    def loc(self, act: Act, node: cst.CSTNode) -> Location:
        line, col, end_line, end_col = act.parsed.span(node)
        return Location(act.display, line, col, end_line, end_col)

    def emit(self, action: Action, act: Act, node: cst.CSTNode, **fields: Any) -> Event | None:
        if self.eager:
            return None
        if action is Action.INLINE and act.depth == 0 and self.frame.name == self.wrapper_frame:
            return None
        location, chain = self.loc(act, node), act.chain
        if self.project.is_library(act.display) and not self.library_entry:
            # inside an installed package: reported at the innermost line of the user's code
            # (as Dynamo's user stack does); calls between library functions are not news
            user = [link for link in chain if not self.project.is_library(link.location.path)]
            if action is Action.INLINE or not user:
                return None
            location, chain = user[-1].location, tuple(user[:-1])
            fields["detail"] = {**fields.get("detail", {}), "library_site": f"{act.parsed.summary.module}:"
                                f"{act.parsed.line(node)}"}
        if action is Action.INLINE and self.uncertain:  # on a path the walk takes without knowing it runs
            fields["detail"] = {**fields.get("detail", {}), "guessed_path": True}
        event = Event(action, location, self.entry, frame=self.frame.name, chain=chain, **fields)
        self.events.append(event)
        return event

    def use(self, value: Value, act: Act, node: cst.CSTNode) -> None:
        """Dynamo realizes a lazily wrapped value: the guard on its Source is installed here."""
        self.first_read(value, act, node)
        if value.kind == V.TENSOR and type(value.source) is LocalSource and not self.eager:
            self.frame.used.add(value.source.local_name)
        self._install(self.builder.realize(value), act, self._read_site(value, act, node))

    def first_read(self, value: Value, act: Act, node: cst.CSTNode) -> None:
        """Where the frame first uses an argument: its TENSOR_MATCH / ID_MATCH guard is reported there."""
        if not self.eager and type(value.source) is LocalSource and value.source.local_name not in self.first_reads \
                and not self.project.is_library(act.display):
            line, column, _, _ = act.parsed.span(self._read_site(value, act, node))
            self.first_reads[value.source.local_name] = (act.display, line, column)

    def length_check(self, value: Value, act: Act, node: cst.CSTNode, fields: int | None = None) -> None:
        self._install(self.builder.length(value, fields), act, self._read_site(value, act, node))

    def appended(self, value: Value, act: Act, node: cst.CSTNode) -> None:
        """The frame changes a list from outside in place: its LENGTH_CHECK fails on the next call."""
        if self.eager or value.source is None:
            return
        name = value.source.name()
        for event in self.events:
            if event.action is Action.WRAP and event.source == name and event.guard_kind == "LENGTH_CHECK":
                event.detail["mutated_in_frame"] = True

    def key_order(self, value: Value, act: Act, node: cst.CSTNode) -> None:
        self._install(self.builder.key_order(value), act, self._read_site(value, act, node))

    @staticmethod
    def _read_site(value: Value, act: Act, node: cst.CSTNode) -> cst.CSTNode:
        """The expression that read the value (`k` in `z * k - w[1]`), when it is in this frame's
        module; else the operation that uses it."""
        read = value.read_at
        return read if read is not None and act.parsed.positions.get(read) is not None else node

    def _install(self, guard: Guard | None, act: Act, node: cst.CSTNode, placed: Event | None = None) -> None:
        """`placed`: an earlier event whose place (location and inline chain) the guard is reported at."""
        if guard is None or self.eager or guard.key in self.frame.guarded:
            return
        self.frame.guarded.add(guard.key)
        detail = dict(guard.detail)
        kind = detail.pop("guard_kind", guard.kind)
        fields = {"source": guard.source.name(), "variable_tracker": guard.variable_tracker, "guard_kind": kind,
                  "guard": guard.text, "value": guard.value, "confidence": guard.confidence, "detail": detail}
        if placed is None:
            self.emit(Action.WRAP, act, node, **fields)
        else:
            self.events.append(Event(Action.WRAP, placed.location, self.entry, frame=self.frame.name,
                                     chain=placed.chain, **fields))

    def use_unseen(self, value: Value, owner: Source, act: Act, node: cst.CSTNode, guard: Guard | None = None) -> None:
        """A value Dynamo reads inside code of its own it inlines (`copy.deepcopy` walking an object's
        `__dict__`): torch reports its guard at the line of the project that first read the object it
        belongs to (the nearest enclosing Source with a user line), here where an earlier guard of the
        frame under that Source was reported; at the call when there is none. `guard`: another than
        the value's own (a dict's key order)."""
        spelled = owner.name()
        placed = next((e for e in self.events if e.action is Action.WRAP and e.frame == self.frame.name
                       and e.source and (e.source == spelled or e.source.startswith((f"{spelled}.", f"{spelled}[")))),
                      None)
        self._install(guard or self.builder.realize(value), act, node, placed)

    def graph_break(self, act: Act, node: cst.CSTNode, decision: breaks.Decision, what: str,
                    at: tuple[Act, cst.CSTNode] | None = None) -> None:
        """Record the break, then unwind to the frame that owns the statement. `at`: where it is reported,
        when that is inside code the walk ran eagerly for this statement (a constructor)."""
        if self.eager:
            # an object built before tracing: its `__init__` runs eagerly, nothing breaks; one the traced frame
            # builds breaks the frame where Dynamo's inlining of the constructor first does
            if self.building is not None and self.building.broke is None:
                self.building.broke = (*self._project_site(act, node), decision, what)
            return
        if self.recording:
            decision = replace(decision, skips_frame=True, also=(*decision.also, breaks.RECORD_FUNCTION_ESCAPED))
        in_loop = self._loop_skips(act, node, decision)
        # resuming inside loops hands their iterators to the resume function: one Dynamo cannot rebuild
        # skips the frame, torch reporting that second break at the same line
        unbuilt = next((loop.iterator for loop in self.root_loops if loop.iterator in loop_breaks.SKIPS_AT_BREAK
                        or (isinstance(loop.stmt, cst.For) and loop.iterator is None)), False) \
            if not in_loop and not decision.skips_frame else False
        if unbuilt is None:  # an iterator whose rebuilding is not measured: as before, the frame is skipped
            in_loop, unbuilt = True, False
        if unbuilt:
            decision = replace(decision, also=(*decision.also, unbuilt))
        detail: dict[str, Any] = {"reason": decision.reason, "what": what}
        skipped = in_loop or bool(unbuilt) or decision.skips_frame or self.in_try > 0 or self.in_iteration > 0 \
            or self.generic_contexts > 0
        partial = decision.partial and act.depth == 0 and not skipped
        if act.depth == 0 and not skipped and not partial:
            line = act.parsed.line(node)
            detail["resume"] = f"torch_dynamo_resume_in_{self.fn_name}_at_{line}"
        if in_loop:
            detail["in_loop"] = True
        if skipped:
            detail["frame_skipped"] = True
        if partial:
            detail["partial_graph"] = True
        if self.settings.fullgraph:
            detail["fullgraph"] = True
        confidence = decision.confidence
        if self.uncertain:  # on a path the walk takes without knowing it runs: a guess, not a finding
            detail["guessed_path"] = True
            confidence = "low"
        # (inside a constructor run eagerly: reported at its line, inside the chain of calls the frame made)
        shown, where = (replace(act, parsed=at[0].parsed), at[1]) if at is not None else (act, node)
        self.emit(Action.GRAPH_BREAK, shown, where, gb_type=decision.gb_type, gb_id=decision.gb_id,
                  variable_tracker=decision.variable_tracker, confidence=confidence, detail=detail)
        for gb_type in decision.also:  # torch reports a second break at the same line (the resumed frame's)
            self.emit(Action.GRAPH_BREAK, shown, where, gb_type=gb_type, gb_id=breaks.registry().id_of(gb_type),
                      variable_tracker=decision.variable_tracker, confidence=confidence,
                      detail={**detail, "also_of": decision.gb_type})
        if self.uncertain:
            raise _GuessedBreak  # the guessed path ends here; the frame goes on along the other one
        if skipped:
            raise _FrameSkipped
        if partial:
            raise _PartialGraph
        if act.depth > 0:
            self.broken_chain = []
            raise _InlinedBreak
        self._resume(act, node)

    def construct_module(self, ref: str, args: list[Value], kwargs: dict[str, Value], act: Act,
                         node: cst.CSTNode) -> Value:
        """`Head(3)`, an nn.Module class called: built as the object model builds it. Called by the traced
        frame, the first break its constructor meets breaks the frame at this call (reported at the project's
        innermost line), and each `__init__` of the project's the eager constructor then enters is compiled as
        a frame of its own that reads an uninitialized module (measured on torch 2.13: GB0264, then GB0119)."""
        if self.eager and self.building is None:
            return self.objects.instantiate(ref, args, kwargs, None)
        outermost = self.building is None
        building = self.building = self.building or Building()
        building.sites.append((act, node))
        try:
            value = self.objects.instantiate(ref, args, kwargs, None)
        finally:
            building.sites.pop()
            if outermost:
                self.building = None
        if outermost and building.broke is not None:
            at_act, at_node, decision, what = building.broke
            self.callee_frames += building.inits
            self.graph_break(act, node, decision, what, at=(at_act, at_node))
        return value

    def _project_site(self, act: Act, node: cst.CSTNode) -> tuple[Act, cst.CSTNode]:
        """Where a break inside a constructor is reported: the innermost line outside torch's own code."""
        sites = [(act, node), *reversed(self.building.sites if self.building else [])]
        return next(((a, n) for a, n in sites if not a.parsed.summary.module.startswith("torch.")), sites[-1])

    def building_init(self, parsed: Parsed, qualname: str, fn: cst.FunctionDef, func: Value,
                      bound: dict[str, Value], cls: str | None) -> None:
        """An `__init__` of the project's that a module the traced frame builds runs: a frame of its own
        once the constructor runs eagerly, its `self` a module whose `__dict__` is still empty."""
        receiver = func.bound_self
        if self.building is None or receiver is None or receiver.kind != V.NN_MODULE \
                or parsed.summary.module.startswith("torch.") or not positional_params(fn):
            return
        own = Value(V.NN_MODULE, ref=receiver.ref, attrs={V.UNINITIALIZED: V.const(True)})
        args = {**V.snapshots(bound), positional_params(fn)[0].name.value: own}
        self.building.inits.append(CalleeFrame(parsed, qualname, fn, args, cls, reached_from=self.entry))

    def _loop_skips(self, act: Act, node: cst.CSTNode, decision: breaks.Decision) -> bool:
        """Whether Dynamo skips the frame for a break in a loop ("graph break in loop", GB7000): torch's
        maybe_has_backedge on the root frame's bytecode (loop_breaks), from the instruction that breaks,
        the root frame's call for a break inside an inlined one; without the bytecode, any loop of the
        root frame around it (a loop inside an inlined callee never skips the root frame)."""
        looping = act.loops > 0 if act.depth == 0 else bool(act.chain) and act.chain[0].message.startswith("in a loop")
        point = node if act.depth == 0 else self.root_call
        if not looping or self.root is None or point is None:
            return looping
        jump = act.depth == 0 and decision.gb_type == breaks.DATA_DEPENDENT_BRANCH
        parsed, fn = self.root
        verdict = loop_breaks.has_backedge(parsed, fn, loop_breaks.Point(point, jump, id(point) in self.bottom_tests),
                                           self.project.memo_of(fn))
        return looping if verdict is None else verdict

    def _resume(self, act: Act, node: cst.CSTNode) -> None:
        """Dynamo continues in a fresh frame; its live locals are that frame's arguments."""
        name = f"torch_dynamo_resume_in_{self.fn_name}_at_{act.parsed.line(node)}"
        self._hand_over_iterators(act, node)
        line = act.parsed.line(node)
        self.frame = Frame(name, first_event=len(self.events), line=line, eager_from=act.parsed.line(
            self.root_loops[0].stmt if self.root_loops else node))
        self.frames.append(self.frame)
        for local, value in act.env.items():
            if value.kind == V.TENSOR and value.source is None:  # computed in the frame: now an argument of this one
                act.env[local] = value.with_(source=LocalSource(local))
            # a number computed in the frame, or one the last resume got on its stack (`mean = x.item()`)
            stacked = isinstance(value.source, LocalSource) and value.source.local_name.startswith("___stack")
            if value.kind == V.CONST and (value.source is None or (stacked and local != value.source.local_name)):
                attrs = {**value.attrs, "from_item": V.const(True)} if stacked else value.attrs
                # a loop's counter keeps its value: the loop's test reads it, and the cache compares it
                known = value.value if self.root_loops and not stacked else V.MISSING
                act.env[local] = value.with_(source=LocalSource(local), value=known, confidence="medium",
                                             attrs=attrs)
        self.frame.handed = {local: value for local, value in act.env.items() if value.kind == V.TENSOR}
        if self.root_loops:
            self._enter_resume(act, node)

    def _hand_over_iterators(self, act: Act, node: cst.CSTNode) -> None:
        """A resume inside `for` loops of the root frame: each iterator is rebuilt for the resume function
        from the items left (their guards installed in the frame that breaks), and is its `___stackN`
        there, outer loops first; the items are read through it: `___tuple_iterator_getitem(
        L['___stack0'], 0)`, which the runtime spells `L['___stack0'][0]`."""
        slot = 0
        for loop in self.root_loops:
            if not isinstance(loop.stmt, cst.For):
                continue
            loop.resumed_at = node
            left = loop.elements[loop.index + 1:]
            for item in left:
                self._realize(item, act, node)
            if loop.iterator == loop_breaks.TUPLE_ITERATOR:
                stack = LocalSource(f"___stack{slot}")
                loop.elements[loop.index + 1:] = [_resourced(item, item_source(stack, number))
                                                  for number, item in enumerate(left)]
            slot += 1
        self.object_sources.clear()  # a new frame: an object's first Source is its first read there

    def _enter_resume(self, act: Act, node: cst.CSTNode) -> None:
        """A loop comes round to a resume function: a compile when the cache holds no entry for what the
        frame is handed (the iterators' items left, its numbers), else a cache hit (no graph, no guard)."""
        iterators, slot = [], 0
        for loop in self.root_loops:
            if isinstance(loop.stmt, cst.For):
                iterators.append(loop_breaks.Handed(f"L['___stack{slot}']", loop.iterator or "",
                                                    len(loop.elements) - loop.index - 1))
                slot += 1
        constants = {local: value.value for local, value in act.env.items()
                     if value.kind == V.CONST and value.known and value.source == LocalSource(local)}
        cache = self.resume_caches.setdefault((self.frame.name, id(node)),
                                              loop_breaks.ResumeCache(self.settings.recompile_limit))
        outcome, failed = cache.enter(tuple(iterators), constants)
        self.frame.compiled = outcome == loop_breaks.COMPILED
        for handed in iterators:
            guard = handed.guard()
            if guard is not None:
                self.emit(Action.WRAP, act, node, source=handed.source, variable_tracker="ListIteratorVariable",
                          guard_kind=guard[0], guard=guard[1], confidence="high")
        if failed is not None:
            self._loop_recompile(act, node, cache, failed)

    def _loop_recompile(self, act: Act, node: cst.CSTNode, cache: loop_breaks.ResumeCache,
                        failed: loop_breaks.Failure) -> None:
        """The guard a loop's next entry fails (the iterator's length, a counter), once per Source of
        the resume function, with how many compiles it caused."""
        count = cache.failures[failed.source]
        for event in self.events:
            if event.action is Action.RECOMPILE and event.frame == self.frame.name and event.source == failed.source:
                event.detail["recompiles"] = count
                return
        self.emit(Action.RECOMPILE, act, node, source=failed.source, guard_kind=failed.kind, guard=failed.guard,
                  confidence="high", detail={"reason": failed.reason, "recompiles": count, "loop_iteration": True,
                                             "once": failed.once})

    def tick(self) -> None:
        if not (self.steps + self.eager_steps) % 256:
            checkpoint()  # a lint cancelled from outside (the language server's next edit) ends here
        if self.eager:
            # building objects has a step budget of its own: a large model's __init__ chain
            # ends early (its attributes partly known) without starving the traced frame's walk
            self.eager_steps += 1
            if self.eager_steps > MAX_EAGER_STEPS:
                raise _EagerTooLong
        else:
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise TooComplex(timed_out=False)
        if (self.steps + self.eager_steps) % 256 == 0 and self.clock() > self.deadline:
            raise TooComplex(timed_out=True)

    def _skippable_root(self, act: Act) -> bool:
        """A root frame SkipFrame applies to: no local is an nn.Module class (Dynamo's
        symbolic_locals_contain_module_class), and it is no decorator's wrapper, whose code keeps its guards
        even with no op (measured)."""
        fn = self.root[1] if self.root is not None else None
        if fn is None or passes_on(fn, act.qualname):
            return False
        return not any(value.kind == V.CLASS and value.ref and (found := self.project.klass(value.ref)) is not None
                       and self.project.is_nn_module(*found) for value in act.env.values())

    def first_reached(self, value: Value) -> Value:
        """One module object under two names (an activation a Sequential holds twice): Dynamo reuses the
        VariableTracker of its first access, and guards it through that Source."""
        if value.kind != V.NN_MODULE or value.source is None or not value.attrs or self.eager:
            return value
        first = self.object_sources.setdefault(id(value.attrs), value.source)
        return value if first == value.source else value.with_(source=first)

    def eager_exhausted(self) -> bool:
        """Whether eager code went past its step budget (what it built since is partly known)."""
        return self.eager_steps > MAX_EAGER_STEPS

    def clock(self) -> float:
        """The walk's own time: the clock less the time spent reading source since the walk began."""
        return time.monotonic() - (READING.seconds - self.read_before)

    def _calls_run_eagerly(self, act: Act, body: cst.BaseSuite, initial: dict[str, Value]) -> list[CalleeFrame]:
        """The calls a skipped frame makes that Dynamo compiles as frames of their own (and those that the
        calls it does not compile make), the whole frame run once in eager mode."""
        events, self.direct_calls, self.replaying = self.events, [], True
        self.comprehension_frames = []
        grad_enabled = self.grad_enabled
        self.eager += 1
        try:
            # once per grad mode the frame is called under (a training step, then evaluation under
            # torch.no_grad()): each callee frame's GLOBAL_STATE guard sees both
            for mode in self.replay_grad_modes:
                self.grad_enabled = mode
                try:
                    self.block(body, Act(act.parsed, act.qualname, dict(initial), cls=act.cls, closure=act.closure))
                except WalkAborted[:-1]:
                    pass  # what ran before it stopped still made its calls
        finally:
            self.eager -= 1
            self.events, self.replaying, self.grad_enabled = events, False, grad_enabled
        return self.direct_calls

    # entry ---------------------------------------------------------------------
    def run(self, act: Act, body: cst.BaseSuite) -> WalkResult:
        skipped = False
        self.module_sources.clear()  # the objects built for the frame's arguments ran before Dynamo traced it
        self.object_sources.clear()
        self.class_attr_sources.clear()
        fn = act.parsed.functions.get(act.qualname)
        self.root = (act.parsed, fn) if isinstance(fn, cst.FunctionDef) else None
        initial = dict(act.env)
        returned = False  # the walk reached the frame's return (not a break that ended it)
        try:
            self.block(body, act)
            returned = True
        except _Return:
            returned = True
        except _FrameSkipped:
            skipped = True
            self._skip_frame(act, body, initial)
        except _PartialGraph:
            # compiled up to the previous resumable state (the start of the statement that broke): what
            # that statement traced is not in the graph, nor guarded (its break is still reported)
            self.frame.graph_ops = self.frame.resumable_ops
            self._forget_guards(self.frame.resumable_events)
        except (_LoopBreak, _LoopContinue, _InlinedBreak, _GuessedBreak):
            pass
        last = self.frames[-1]
        if returned and not last.graph_ops and not self.settings.fullgraph and (
                len(self.frames) > 1 or self._skippable_root(act)):
            # a frame (or the resume function) that returns having traced no op: Dynamo's `_return` raises
            # SkipFrame ("No ops traced for the FX graph"), so it runs eagerly and none of its guards is
            # installed (a cache's `__init__` called as a frame of its own)
            last.compiled = False
        for frame, end in zip(self.frames, [f.first_event for f in self.frames[1:]] + [len(self.events)]):
            if not frame.compiled:  # a cache hit, or no compile at all: no guard of its own
                self.events[frame.first_event:end] = [
                    e if e.action is not Action.WRAP else None for e in self.events[frame.first_event:end]]
            else:
                self._loop_head_lines(act, frame, end)
        self.events = [e for e in self.events if e is not None]
        # a frame whose trace put no tensor op in its graph compiles no graph (explain counts 0)
        graph_frames = [f.name for f in self.frames if f.graph_ops and f.compiled]
        specialized = {(f.name, source.name()) for f in self.frames for source in f.specialized}
        for event in self.events:
            if event.action is Action.WRAP and (event.frame, event.source) in specialized:
                event.detail["specialized"] = True
        # torch counts a break once per line and type, however often a loop comes round to it
        breaks_seen = {(e.location.path, e.location.line, e.gb_type) for e in self.events
                       if e.action is Action.GRAPH_BREAK and not e.detail.get("guessed_path")}
        root = self.frames[0]
        compiled = root.compiled and not (returned and len(self.frames) == 1 and not root.graph_ops)
        return WalkResult(self.events, len(graph_frames), len(breaks_seen), graph_frames, skipped, self.notes, compiled)

    def drop_event(self, at: int) -> None:
        """Forget one recorded event (a call torch does not report); the frames begun after it keep pointing
        at their first event."""
        del self.events[at]
        for frame in self.frames:
            if frame.first_event > at:
                frame.first_event -= 1

    def _forget_guards(self, start: int) -> None:
        """Drop the guards recorded from event `start` on (a trace Dynamo restarted or cut short); the frames
        begun since (resume functions of a loop's earlier iterations) keep pointing at their first event."""
        kept = [at for at in range(start, len(self.events)) if self.events[at].action is not Action.WRAP]
        for frame in self.frames:
            if frame.first_event > start:
                frame.first_event = start + bisect.bisect_left(kept, frame.first_event)
        self.events[start:] = [self.events[at] for at in kept]

    def _loop_head_lines(self, act: Act, frame: Frame, end: int) -> None:
        """A resume function inside a loop reaches the code before its resume point through the loop's
        jump back; torch 2.13 reports what the root frame calls there at the resume's line (measured on
        Python 3.11: the tracer's line number is not updated in that code)."""
        for at in range(frame.first_event, end):
            event = self.events[at]
            if event is not None and event.action is Action.INLINE and not event.chain \
                    and event.location.path == act.display and frame.eager_from <= event.location.line < frame.line:
                self.events[at] = event.with_(location=Location(act.display, frame.line, 1))

    def _skip_frame(self, act: Act, body: cst.BaseSuite, initial: dict[str, Value]) -> None:
        """Dynamo gives up on the frame being traced: no compile, so no guard; the calls the trace inlined
        before it gave up are still inlined. The entry's own frame: nothing of it is compiled; a resume
        function: the frames before it keep their graphs. The skipped frame runs eagerly, and each
        function it calls is a frame Dynamo compiles (a resume function's from where it starts), with the
        values eager code passes it: those of the calls the failed trace broke at are gone with it."""
        frame = self.frame
        frame.compiled = False
        first = 0 if frame is self.frames[0] else frame.first_event
        self.events[first:] = [e for e in self.events[first:] if e.action in (Action.GRAPH_BREAK, Action.INLINE)]
        if frame is self.frames[0]:
            for other in self.frames:
                other.compiled = False
        calls = self._calls_run_eagerly(act, body, initial)
        traced = [] if frame is self.frames[0] else self.callee_frames
        self.callee_frames = [*traced, *(c for c in calls if c.call is None or frame is self.frames[0]
                                         or c.call.line >= frame.eager_from)]
        for comprehension in self.comprehension_frames:
            if frame is self.frames[0] or act.parsed.line(comprehension.node) >= frame.eager_from:
                self._comprehension_compiled(act, comprehension)

    def _compiles_comprehension(self, node: cst.CSTNode, act: Act) -> bool:
        """convert_frame's has_tensor_in_frame for the comprehension's frame: a global of its code is torch
        or a torch module, or a variable of the enclosing frame it reads holds a tensor or a module (an
        answer the walk cannot give counts as no: no prediction)."""
        for name in comprehensions.free_names(node):  # type: ignore[arg-type]
            if name in act.env:
                if comprehensions.has_tensor(act.env[name]):
                    return True
            elif self.project.is_torch_module(act.parsed.summary.imports.get(name, "")):
                return True
        return False

    def _compiled_when_run_eagerly(self, parsed: Parsed, fn: cst.FunctionDef, bound: dict[str, Value]) -> bool:
        """Whether Dynamo compiles the frame of a function eager code calls: not torch's own nor the
        standard library's (trace_rules skips their files), and only when convert_frame's
        `has_tensor_in_frame` holds: an argument is a tensor or a module (or holds one), or the code reads
        torch or a torch module as a global (an argument the walk cannot tell counts as no)."""
        top = parsed.summary.module.split(".")[0]
        if top == "torch" or top in sys.stdlib_module_names:
            return False
        if any(comprehensions.has_tensor(value) for value in bound.values()):
            return True
        imports = parsed.summary.imports
        return any(self.project.is_torch_module(imports.get(name, "")) for name in comprehensions.global_names(fn))

    def _replaced_by_generated_init(self, fn: cst.FunctionDef, func: Value) -> bool:
        """An inherited `__init__` of a dataclass, which runs the one `@dataclass` generated instead (code of
        no file the walk reads)."""
        if fn.name.value != "__init__" or func.bound_self is None:
            return False
        built = self.project.klass(func.bound_self.ref or "")
        return built is not None and is_dataclass(built[1]) and "__init__" not in built[1].methods

    def _comprehension_compiled(self, act: Act, comprehension: comprehensions.ComprehensionFrame) -> None:
        """A comprehension the skipped frame runs is compiled as a frame of its own (`file:<listcomp>`): with
        an input iterator Dynamo cannot step (`next()` on a dict_keyiterator), that frame is skipped too."""
        decision = breaks.decide_iterator_input(comprehension.iterator)
        if not decision.breaks:
            return  # compiled: what its graph holds is the element's business, not walked here
        if self.project.is_library(act.display) and not self.library_entry:
            return  # inside an installed package: torch reports it at the user's line (emit's rule), unknown here
        location = self.loc(act, comprehension.node)
        entry = f"{act.display}:{comprehension.name}"
        detail = {"reason": decision.reason, "what": comprehension.iterator, "frame_skipped": True}
        self.events.append(Event(Action.GRAPH_BREAK, location, entry, frame=comprehension.name, gb_type=decision.gb_type,
                                 gb_id=decision.gb_id, variable_tracker=decision.variable_tracker,
                                 confidence=decision.confidence, detail=detail))
        self.events.append(Event(Action.FRAME, location, entry, frame=comprehension.name, detail={
            "graph_count": 0, "graph_frames": [], "graph_break_count": 1, "frame_skipped": True, "compiled": False,
            "reached_from": self.entry}))

    # statements ----------------------------------------------------------------
    def block(self, suite: cst.BaseSuite | list[cst.BaseStatement], act: Act) -> None:
        if isinstance(suite, cst.SimpleStatementSuite):
            for small in suite.body:
                self.small(small, act, suite)
            return
        statements = suite if isinstance(suite, list) else suite.body
        uncertain = self.uncertain  # a guessed branch may make the rest of this block uncertain
        try:
            for stmt in statements:
                self.statement(stmt, act)
        except _GuessedBreak:
            if self.uncertain <= uncertain:
                raise  # guessed further out: that path ends
        finally:
            self.uncertain = uncertain

    def statement(self, stmt: cst.BaseStatement, act: Act) -> None:
        self.tick()
        if act.depth == 0:
            self.frame.resumable_ops, self.frame.resumable_events = self.frame.graph_ops, len(self.events)
        # a break inside an inlined call resumes where the root frame made that call (call_user)
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                self.small(small, act, stmt)
        else:
            self.compound(stmt, act)

    def small(self, node: cst.BaseSmallStatement, act: Act, line_node: cst.CSTNode) -> None:
        if isinstance(node, cst.Expr):
            self.expr(node.value, act)
        elif isinstance(node, cst.Assign):
            value = self.expr(node.value, act)
            for target in node.targets:
                self.assign(target.target, value, act)
        elif isinstance(node, cst.AnnAssign):
            if node.value is not None:
                self.assign(node.target, self.expr(node.value, act), act)
        elif isinstance(node, cst.AugAssign):
            self.aug_assign(node, act)
        elif isinstance(node, cst.Return):
            value = self.expr(node.value, act) if node.value else V.const(None)
            if act.depth == 0 and not self.eager:
                for returned in value.items if value.kind in (V.TUPLE, V.LIST) and value.items else [value]:
                    refused = None if returned.kind != V.OBJECT else breaks.decide_frame_class_returned() \
                        if V.FRAME_CLASS in returned.attrs else breaks.decide_returned_object(returned.ref)
                    if refused is not None:
                        self.graph_break(act, node, refused, "return")
            raise _Return(value)
        elif isinstance(node, cst.Assert):
            self.assert_stmt(node, act)
        elif isinstance(node, cst.Raise):
            self.raise_stmt(node, act)
        elif isinstance(node, cst.Global):
            act.declared_global.update(n.name.value for n in node.names)
        elif isinstance(node, cst.Break):
            raise _LoopBreak
        elif isinstance(node, cst.Continue):
            raise _LoopContinue
        elif isinstance(node, cst.Del):
            for name in _target_names(node.target):
                act.env.pop(name, None)
        elif isinstance(node, (cst.Import, cst.ImportFrom)) and act.qualname != MODULE_FRAME:
            self.local_import(node, act)  # a module's own imports resolve lazily, through its summary

    def local_import(self, node: cst.Import | cst.ImportFrom, act: Act) -> None:
        """`import torch` inside a function: the name is a local bound to the module."""
        if isinstance(node.names, cst.ImportStar) or (isinstance(node, cst.ImportFrom) and node.relative):
            return
        base = dotted(node.module) if isinstance(node, cst.ImportFrom) and node.module else None
        for alias in node.names:
            name = dotted(alias.name) or ""
            local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else None
            if base is not None:
                act.env[local or name] = self.dotted_value(f"{base}.{name}", None)
            elif local is not None:
                act.env[local] = self.dotted_value(name, None)
            else:
                act.env[name.split(".")[0]] = self.dotted_value(name.split(".")[0], None)

    def compound(self, stmt: cst.BaseCompoundStatement, act: Act) -> None:
        if isinstance(stmt, cst.If):
            self.if_stmt(stmt, act)
        elif isinstance(stmt, cst.For):
            self.for_stmt(stmt, act)
        elif isinstance(stmt, cst.While):
            self.while_stmt(stmt, act)
        elif isinstance(stmt, cst.With):
            self.with_stmt(stmt, act)
        elif isinstance(stmt, cst.Try):
            self.try_stmt(stmt, act)
        elif isinstance(stmt, cst.Match):
            self.match_stmt(stmt, act)
        elif isinstance(stmt, cst.FunctionDef) and act.qualname == MODULE_FRAME:
            act.env[stmt.name.value] = self.global_value(act.parsed.summary, stmt.name.value)
            self._decorate(stmt, act)
        elif isinstance(stmt, cst.FunctionDef):
            # each run of a `def` makes a function of its own, closing over that run's cells (a class
            # decorator applied twice wraps each class's own `forward`)
            key = f"local:{id(stmt)}:{id(act.env)}"
            self.local_funcs[key] = (act.parsed, stmt, _cells(act), act.cls)
            self.local_names[key] = f"{act.qualname}.<locals>.{stmt.name.value}"
            act.env[stmt.name.value] = Value(V.FUNC, ref=key)
        elif isinstance(stmt, cst.ClassDef):
            refused = breaks.decide_class_statement(self.settings) \
                if not self.eager and act.qualname != MODULE_FRAME else None
            if refused is not None:
                self.graph_break(act, stmt, refused, f"class {stmt.name.value}")
            # a script's own classes (walked at module level by the driver) are its globals; one Dynamo builds
            # while tracing is a class without a Source
            if act.qualname == MODULE_FRAME:
                act.env[stmt.name.value] = self.global_value(act.parsed.summary, stmt.name.value)
            elif not self.eager and refused is None:
                act.env[stmt.name.value] = Value(V.CLASS, attrs={V.FRAME_CLASS: V.const(stmt.name.value)})
            else:
                act.env[stmt.name.value] = V.unknown()
            if act.qualname == MODULE_FRAME:
                self._decorate(stmt, act)

    def _decorate(self, stmt: cst.FunctionDef | cst.ClassDef, act: Act) -> None:
        """A module-level definition's decorators of the project, applied as Python applies them at
        import, for what they do (`@register("silu")` fills a registry). The name keeps its own
        value: the walk applies a function's wrapper where the function is called."""
        if not self.eager:
            return
        value = act.env[stmt.name.value]
        if isinstance(stmt, cst.FunctionDef):
            self._apply_decorators(stmt, value, act)
        elif value.kind == V.CLASS and value.ref and value.ref not in self.decorated:
            self.decorated.add(value.ref)
            self._apply_decorators(stmt, value, act)

    def _apply_decorators(self, stmt: cst.FunctionDef | cst.ClassDef, value: Value, act: Act) -> None:
        """Each decorator that registers what it decorates or sets attributes of it (a class's
        `forward`), innermost first; one that only wraps, renames or documents is not run."""
        for decorator in reversed(stmt.decorators):
            written = decorator.decorator
            if pure_decorator(written, act.parsed.summary.imports):
                continue  # `@dataclass`, `@torch.no_grad()`: they bind names only
            factory = self.expr(written.func if isinstance(written, cst.Call) else written, act)
            found = self.function_node(factory) if factory.kind == V.FUNC else None
            if found is None or not isinstance(found[1], cst.FunctionDef) or not (
                    registers(found[1], method=factory.bound_self is not None)
                    or (isinstance(stmt, cst.ClassDef) and patches(found[1]))):
                continue
            made = self.expr(written, act) if isinstance(written, cst.Call) else factory
            if made.kind == V.FUNC:
                self.call(made, [value], {}, act, written)

    def class_dict(self, summary: ModuleSummary, cls: ClassSummary) -> dict[str, Value]:
        """What creating the class set on it, done the first time the walk looks into the class, as its
        module's import would have: a base's `__init_subclass__` (`cls.sub_configs_defaults = {...}`), then
        the class's decorators (`cls.forward = forward`). Those entries come before the body's own."""
        ref = qualified(summary, cls.qualname)
        if ref not in self.created:
            self.created.add(ref)
            self._init_subclass(summary, cls, ref)
        if ref not in self.decorated and cls.decorators:
            self.decorated.add(ref)
            parsed = self.project.parsed(summary.display)
            node = parsed.classes.get(cls.qualname) if parsed is not None else None
            if parsed is not None and node is not None:
                self._decorate_eagerly(parsed, node, Value(V.CLASS, ref=ref))
        return self.class_stores.get(ref) or {}

    def _init_subclass(self, summary: ModuleSummary, cls: ClassSummary, ref: str) -> None:
        """`type.__new__` calls the first base's `__init_subclass__` with the new class (an implicit
        class method): what it stores on `cls` is the class's."""
        parsed = self.project.parsed(summary.display)
        node = parsed.classes.get(cls.qualname) if parsed is not None else None
        hook = next((qualified(mod, f"{base.qualname}.__init_subclass__") for mod, base in
                     self.project.mro(summary, cls)[1:] if "__init_subclass__" in base.methods), None)
        if parsed is None or node is None or hook is None:
            return
        self._at_import(parsed, lambda act: self.call(Value(V.FUNC, ref=hook, bound_self=Value(V.CLASS, ref=ref)),
                                                      [], {}, act, node))

    def _decorate_eagerly(self, parsed: Parsed, node: cst.ClassDef, value: Value) -> None:
        self._at_import(parsed, lambda act: self._apply_decorators(node, value, act))

    def _at_import(self, parsed: Parsed, run: Callable[[Act], _T]) -> _T | None:
        """Code of `parsed`'s module running as its import runs it (a class's creation, a decorator): in the
        module's namespace, outside any trace. What ran before the walk stopped stays done (None then)."""
        act = Act(parsed, MODULE_FRAME, dict(self.module_envs.get(parsed.summary.display, {})))
        with self._outside_trace():
            try:
                return run(act)
            except WalkAborted[:-1]:
                return None

    @contextmanager
    def _outside_trace(self) -> Iterator[None]:
        """Python running before any trace (an import, a class decorator, a module-level factory): no
        guard, graph op or guessed path of the frame counts what it does."""
        self.eager += 1
        graph_ops, uncertain = self.frame.graph_ops, self.uncertain
        self.uncertain = 0
        try:
            yield
        finally:
            self.eager -= 1
            self.frame.graph_ops, self.uncertain = graph_ops, uncertain

    def import_module(self, summary: ModuleSummary) -> dict[str, Value] | None:
        """Importing a project module runs its top level once (what its decorators and calls do to its
        objects: a registry filled); its namespace is then what global reads see."""
        parsed = self.project.parsed(summary.display)
        if parsed is None:
            return None
        act = Act(parsed, MODULE_FRAME, {"__name__": V.const(summary.module)})
        self.module_envs[summary.display] = act.env
        with self._outside_trace():
            try:
                # a name imported and then rebound (`NAMES = OrderedDict(**extra, **NAMES)`) is the
                # import's until the statement that rebinds it runs
                for name in summary.imports.keys() & summary.globals.keys():
                    act.env[name] = self.dotted_value(summary.imports[name], None)
                # the statements that change objects; the others only bind names the summary knows
                self.block([s for s in parsed.module.body if has_effects(s, summary.imports)], act)
            except WalkAborted[:-1]:  # what ran before the walk stopped is the module as far as it got
                pass
        return act.env

    def if_stmt(self, stmt: cst.If, act: Act) -> None:
        test = self.expr(stmt.test, act)
        taken = self.truth(test, act, stmt.test, "if")
        orelse: cst.BaseSuite | list[cst.BaseStatement] | None = (
            [stmt.orelse] if isinstance(stmt.orelse, cst.If) else stmt.orelse.body if stmt.orelse else None)
        if taken is not None and test.confidence == "low" and test.kind == V.CONST:
            # decided by a weak guess (a None default nobody is seen passing): the guessed path
            # first, the other one too when the guessed path leaves the function
            first, second = (stmt.body, orelse) if taken else (orelse, stmt.body)
            self._uncertain_paths(first, second, lazy=True, act=act)
        elif taken is True:
            self.block(stmt.body, act)
        elif taken is False:
            if orelse is not None:
                self.block(orelse, act)
        else:  # unknown: both paths may be traced on some call
            self._uncertain_paths(stmt.body, orelse, lazy=False, act=act)

    def _uncertain_paths(self, first: cst.BaseSuite | list[cst.BaseStatement] | None,
                         second: cst.BaseSuite | list[cst.BaseStatement] | None, lazy: bool, act: Act) -> None:
        """Two paths the walk cannot choose between; the walk returns (or goes round its loop) only
        when both do."""
        before, lengths = dict(act.env), _list_lengths(act.env)
        self.uncertain += 1
        try:
            ended = self._branch(first, act) if first is not None else None
            fell_through = False
            if ended or not lazy:
                other = self._branch(second, act) if second is not None else None
                fell_through = lazy and not other  # the code below runs only if the guess is wrong
                act.left_early |= bool(ended) and not other
                both = {ended, other} if other and (ended or lazy) else set()
                # both paths leave: the loop goes round if one of them continues, ends if one breaks;
                # the handler runs only when both raise
                ended = next((how for how in ("continue", "break", "return", "raise") if how in both), None)
                _forget_branch_constants(act.env, before)
                _forget_branch_appends(act.env, lengths)
        finally:
            self.uncertain -= 1
        if ended == "raise":
            raise _Raised(None)
        if ended == "continue":
            raise _LoopContinue
        if ended == "break":
            raise _LoopBreak
        if ended:
            raise _Return(V.unknown("medium"))
        if fell_through:
            self.uncertain += 1  # until the enclosing block ends (block() restores it)

    def _branch(self, body: cst.BaseSuite | list[cst.BaseStatement], act: Act) -> str | None:
        """One of two paths the walk cannot choose between; how it ended ("return", "continue",
        "break", "raise"), None when it falls through. Leaving there does not end the walk: the other path
        goes on."""
        callee_frames = len(self.callee_frames)
        try:
            self.block(body, act)
        except _Return as ret:
            act.returned.append(ret.value)  # one of the values the call may return (unknown: it raised)
            return "return"
        except _LoopContinue:
            return "continue"
        except _LoopBreak:
            return "break"
        except _Raised:  # to a handler of the frame's: only on this path, the other one goes on
            return "raise"
        except _GuessedBreak:
            del self.callee_frames[callee_frames:]  # callees broken on this path are no frames of their own
            return "return"
        return None

    def match_stmt(self, stmt: cst.Match, act: Act) -> None:
        """`match`: a subject the walk knows picks its case (Dynamo guards the subject and traces
        that case only); otherwise every case may be traced on some call."""
        subject = self.expr(stmt.subject, act)
        for case in stmt.cases:
            verdict = self._case_matches(case, subject, act)
            if verdict is True:
                self.block(case.body, act)
                return
            if verdict is None:
                break
        before = dict(act.env)
        self.uncertain += 1
        try:
            for case in stmt.cases:
                self._branch(case.body, act)
        finally:
            self.uncertain -= 1
            _forget_branch_constants(act.env, before)

    def _case_matches(self, case: cst.MatchCase, subject: Value, act: Act) -> bool | None:
        """True or False when the pattern is a literal (or `_`) and the subject a known constant."""
        pattern = case.pattern
        if case.guard is not None:
            return None
        if isinstance(pattern, cst.MatchAs) and pattern.pattern is None and pattern.name is None:
            return True  # `case _:`
        values = [pattern] if isinstance(pattern, cst.MatchValue) else (
            [p.pattern for p in pattern.patterns] if isinstance(pattern, cst.MatchOr) else None)
        if values is None or not all(isinstance(v, cst.MatchValue) for v in values):
            return None
        if subject.kind != V.CONST or not subject.known:
            return None
        self.use(subject, act, case)
        wanted = [self.expr(v.value, act) for v in values if isinstance(v, cst.MatchValue)]
        if not all(w.kind == V.CONST and w.known for w in wanted):
            return None
        return any(w.value == subject.value for w in wanted)

    def try_stmt(self, stmt: cst.Try, act: Act) -> None:
        handlers = len(stmt.handlers) > 0
        self.handlers += handlers
        self.catching.append(_caught_names(stmt.handlers))
        root = act.depth == 0  # an inlined callee's try is not where Dynamo resumes: the call is
        self.in_try += root
        raised: _Raised | None = None
        try:
            try:
                self.block(stmt.body, act)
            except _Raised as exc:
                if not handlers:
                    raise
                raised = exc
            finally:
                self.handlers -= handlers
                self.catching.pop()
            if raised is not None:
                self.block(_handler(stmt.handlers, raised.name).body, act)
        finally:  # however the body ends (a break or an abort unwinding it too)
            self.in_try -= root
        if raised is None and stmt.orelse:
            self.block(stmt.orelse.body, act)
        if stmt.finalbody:
            self.block(stmt.finalbody.body, act)

    def raises(self, name: str) -> None:
        """Python raises the built-in exception `name` here (`d[key]` of a key the dict lacks): when the
        innermost `try` catches it, the walk jumps to that handler, as Dynamo traces it; else nothing
        is decided (the value is unknown)."""
        caught = self.catching[-1] if self.catching else frozenset()
        if caught & {name, *_BASES.get(name, ())}:
            raise _Raised(name)

    def assert_stmt(self, node: cst.Assert, act: Act) -> None:
        """Dynamo rewrites an `assert` whose message is absent or a literal (_detect_and_normalize_assert_statement):
        on a tensor it is torch._assert_async, and a constant False breaks (GB0034 inside a try; elsewhere
        the jump's break, the resumed frame raising). Any other message leaves a plain jump: a tensor's is
        data-dependent branching, and a failing one builds `AssertionError(message)` and raises it."""
        literal = node.msg is None or isinstance(node.msg, (cst.SimpleString, cst.Integer, cst.Float)) or (
            isinstance(node.msg, cst.ConcatenatedString) and not _has_formatted_part(node.msg))
        test = self.expr(node.test, act)
        if self.truth(test, act, node.test, "assert" if literal else "assert-jump") is not False or self.eager:
            return
        if literal:
            decision = breaks.decide_failing_assert() if self.in_try else breaks.decide_branch("if", self.settings)
            self.graph_break(act, node, decision, "assert")
            raise _Return(V.unknown())  # the resumed frame raises the AssertionError eagerly
        text = _is_str(self.expr(node.msg, act))
        if text is False:
            self.graph_break(act, node, breaks.decide_assertion_message(), "assert")
        if text is not True:
            raise _Return(V.unknown())  # AssertionError(message) runs eagerly and is raised
        self.raise_exception("AssertionError", node, act)

    def raise_stmt(self, node: cst.Raise, act: Act) -> None:
        """A raise the frame handles is traced; one that leaves it is an Observed exception
        (Dynamo skips the frame), predicted only where the walk knows the raise runs."""
        exc = node.exc.func if isinstance(node.exc, cst.Call) else node.exc
        if isinstance(node.exc, cst.Call) and any(arg.keyword is not None for arg in node.exc.args) \
                and dotted(exc) in breaks.BUILTIN_EXCEPTIONS and dotted(exc) not in act.env and not self.eager:
            # (its positional arguments, `raise ImportError(msg, name=...)`, are evaluated before the refusal)
            for arg in node.exc.args:
                self.expr(arg.value, act)
            self.graph_break(act, node, breaks.decide_exception_keywords(), dotted(exc) or "raise")
            raise _Return(V.unknown())  # the resumed frame raises it eagerly
        self.raise_exception(dotted(exc) if exc is not None else None, node, act)

    def raise_exception(self, name: str | None, node: cst.Raise | cst.Assert, act: Act) -> None:
        if self.handlers:
            raise _Raised(name)
        # (not after a path that left the function on a condition the walk could not decide: a fallback's
        # `raise NotImplementedError` that only a missing attribute reaches)
        if not self.uncertain and not act.left_early:
            self.graph_break(act, node, breaks.decide_raise(False, self.settings), "raise")
        raise _Return(V.unknown())  # on an undecided path: what the call returns is not known

    def for_stmt(self, stmt: cst.For, act: Act) -> None:
        func, args = None, []
        if isinstance(stmt.iter, cst.Call):  # what it calls tells the iterator's kind (`enumerate(...)`)
            self.tick()
            func, args, kwargs = self.call_parts(stmt.iter, act)
            iterable = self.call(func, args, kwargs, act, stmt.iter)
        else:
            iterable = self.expr(stmt.iter, act)
        elements = self.iterate(iterable, act, stmt.iter, unrolled=True)
        if elements is None and iterable.kind == V.TENSOR and not self.eager:
            elements = _rows(iterable, self)
        act.loops += 1
        try:
            if elements is None:  # iterations unknown: the body may not run at all
                element = iterable.attrs.get("element") if iterable.kind == V.LIST else \
                    _row(iterable) if iterable.kind == V.TENSOR else None
                # each iteration's element, of a known type (`for t in timesteps.tolist()`; a row of a tensor
                # whose first size only the data decides: `for expert_idx in expert_hit`)
                name = stmt.target.value if isinstance(stmt.target, cst.Name) else "item"
                self.assign(stmt.target, element.with_(ref=f"loop:{name}") if element is not None else V.unknown(),
                            act)
                # the first iteration is certain for a range known non-empty, and taken for a tensor's rows:
                # a tensor of no rows is rare (`nonzero()` of the experts some token was routed to)
                runs = (iterable.kind == V.RANGE and NONEMPTY in iterable.attrs) or iterable.kind == V.TENSOR
                self.uncertain += 0 if runs else 1
                callee_frames = len(self.callee_frames)
                before, lengths = dict(act.env), _list_lengths(act.env)
                try:
                    self._loop_body(stmt.body, act)
                except _GuessedBreak:
                    del self.callee_frames[callee_frames:]
                finally:
                    self.uncertain -= 0 if runs else 1
                # run once here, zero or many times in the program: what the body assigns is not known
                _forget_branch_constants(act.env, before)
                _forget_branch_appends(act.env, lengths)
            else:
                before, start, recorded = dict(act.env), self.eager_steps, len(self.recorded)
                unrolled = elements[:MAX_UNROLL]
                loop = None if act.depth or self.eager else _Loop(
                    stmt, loop_breaks.iterator_kind(stmt.iter, iterable, func, args), list(unrolled))
                if loop is not None:
                    self.root_loops.append(loop)
                for done, element in enumerate(unrolled, 1):
                    if loop is not None:  # a resume in an earlier iteration read the items from its iterator
                        self._next_item(loop, done - 1, act)
                        element = loop.elements[done - 1]
                        if loop.resumed_at is not None and loop.iterator == loop_breaks.TUPLE_ITERATOR:
                            self._realize(element, act, loop.resumed_at)  # the rebuilt iterator's item, whole
                    self.assign(stmt.target, element, act)
                    if self._loop_body(stmt.body, act):
                        break
                    projected = (self.eager_steps - start) / done * len(unrolled)
                    if self.eager and len(self.recorded) == recorded and done < len(unrolled) and \
                            projected > (MAX_EAGER_STEPS - start) / 2 and not self._constructing():
                        # an eager loop that calls nothing compiled and would take most of what is left
                        # (pre-training without compile): the rest of the program, where the compiled
                        # calls are, gets the budget; what its later iterations assign is not known.
                        # Not a loop that builds an object (a UNet's down blocks): the model is made of it
                        _forget_branch_constants(act.env, before)
                        break
                else:
                    if len(elements) > len(unrolled):
                        # unrolled only so far (`range(10**12)`): what its later iterations assign is not known
                        _forget_branch_constants(act.env, before)
                    if loop is not None:
                        self._next_item(loop, len(unrolled), act)  # the FOR_ITER that ends the loop
        finally:
            act.loops -= 1
            if self.root_loops and self.root_loops[-1].stmt is stmt:
                self.root_loops.pop()
        if stmt.orelse:
            self.block(stmt.orelse.body, act)

    def _constructing(self) -> bool:
        """The walk is inside an object's construction (an `__init__` or `__post_init__` is active)."""
        return any(qualname.rpartition(".")[2] in ("__init__", "__post_init__") for _, qualname in self.inlining)

    def _next_item(self, loop: _Loop, index: int, act: Act) -> None:
        """FOR_ITER in the root frame: in a resume function made inside this loop, `next()` on a `zip`
        is not supported ("Missing tp_iternext"): that resume frame is skipped."""
        loop.index = index
        if loop.iterator == loop_breaks.MISSING_NEXT and loop.resumed_at is not None:
            self.graph_break(act, loop.resumed_at, breaks.decide_missing_next(), "next() on zip")

    def _loop_body(self, body: cst.BaseSuite, act: Act) -> bool:
        """One iteration; True when it ended with `break`."""
        try:
            self.block(body, act)
        except _LoopBreak:
            return True
        except _LoopContinue:
            pass
        return False

    def while_stmt(self, stmt: cst.While, act: Act) -> None:
        # the first test runs before any backward jump (Dynamo's maybe_has_backedge looks forward only):
        # a break there resumes in the loop's body; so does one at the copy of the test at the loop's end,
        # whose jump back is the instruction that breaks, not one after it
        if not act.depth and not self.eager:
            self.root_loops.append(_Loop(stmt))
        try:
            resumed = self._while_loop(stmt, act)
        finally:
            if self.root_loops and self.root_loops[-1].stmt is stmt:
                self.root_loops.pop()
        if resumed:
            # the code after the loop is one more resume function, the other target of the test's jump
            self.expr(stmt.test, act)
            self._resume(act, stmt)

    def _while_loop(self, stmt: cst.While, act: Act) -> bool:
        """The loop's iterations; True when its test is a tensor's (each iteration a resume function's)."""
        test = self.expr(stmt.test, act)
        if self.truth(test, act, stmt.test, "while") is False:
            return False
        resumed = test.kind == V.TENSOR
        act.loops += 1
        try:
            for index in range(MAX_UNROLL):
                if index:
                    self.bottom_tests.add(id(stmt.test))
                    try:
                        test = self.expr(stmt.test, act)
                        if self.truth(test, act, stmt.test, "while") is False:
                            break
                    finally:
                        self.bottom_tests.discard(id(stmt.test))
                if self._loop_body(stmt.body, act):
                    break
                # a test on a tensor: walked round a third time, enough for the numbers the loop changes
                # to turn dynamic in the resume function's cache (then every iteration is a cache hit)
                if not test.known and not (resumed and index < 2):
                    break
        finally:
            act.loops -= 1
        return resumed

    def with_stmt(self, stmt: cst.With, act: Act) -> None:
        grad_enabled, autocast = self.grad_enabled, self.autocast
        generic = 0  # user context managers entered by the frame itself (GenericContextWrappingVariable)
        recording = 0  # record_function blocks Dynamo captures (a break inside one cannot be resumed)
        for item in stmt.items:
            manager = item.item.func if isinstance(item.item, cst.Call) else item.item
            callee = self.expr(manager, act)
            generic += act.depth == 0 and not self.eager and isinstance(item.item, cst.Call) \
                and self._user_context_manager(callee)
            refused = breaks.decide_generator_context_manager(self.settings) \
                if callee.kind == V.FUNC and self._user_context_manager(callee) and not self.eager else None
            if refused is not None:
                self.graph_break(act, item.item, refused, "with a contextlib.contextmanager")
            name = self.lib_name(callee)
            given = item.item.args if isinstance(item.item, cst.Call) else ()
            args = [self.expr(arg.value, act) for arg in given if arg.keyword is None]
            kwargs = {arg.keyword.value: self.expr(arg.value, act) for arg in given if arg.keyword is not None}
            if name:
                decision = breaks.decide_context_manager(name, self.settings)
                if decision.action == "graph-break" and decision.skips_frame and act.depth > 0:
                    # entering it fails the frame it is written in; inside an inlined call, the caller
                    # breaks at that call instead (measured: transformers' `with _hook_installation_lock`)
                    decision = replace(decision, skips_frame=False)
                if decision.action == "graph-break":
                    self.graph_break(act, item.item, decision, f"with {name}")
                recording += name in breaks.RECORD_FUNCTION and self.settings.capture_profiler_record_function
                # eager code and traced code alike: inside, `torch.is_grad_enabled()` answers the new mode
                self.grad_enabled = grad_mode_in(name, args, self.grad_enabled)
                self.autocast = autocast_in(name, args, kwargs, self.autocast)
            if item.asname is not None:
                opens = self.eager and callee.kind == V.BUILTIN and callee.ref == "open"
                self.assign(item.asname.name, data_files.opened(self, args, kwargs) if opens else V.unknown(), act)
        # a break inside the block of a user context manager skips the frame (measured: 0 graphs); inside an
        # inlined call's own `with`, the caller breaks at the call and the callee's frame is skipped
        self.generic_contexts += generic
        self.recording += recording
        try:
            self.block(stmt.body, act)
        finally:
            self.grad_enabled, self.autocast = grad_enabled, autocast
            self.generic_contexts -= generic
            self.recording -= recording

    def _user_context_manager(self, made: Value) -> bool:
        """`with Timer():` of a class of the project, or `with section():` of a project function decorated
        with contextlib.contextmanager."""
        if made.kind not in (V.CLASS, V.FUNC) or not made.ref:
            return False
        if made.kind == V.CLASS:
            found = self.project.klass(made.ref)
            return found is not None and any("__enter__" in klass.methods for _, klass in self.project.mro(*found))
        node = self.function_node(made)
        summary = node[0].summary.functions.get(node[4]) if node is not None else None
        return summary is not None and _makes_context_manager(summary.decorators)

    # assignment ----------------------------------------------------------------
    def assign(self, target: cst.BaseExpression, value: Value, act: Act) -> None:
        if isinstance(target, cst.Name):
            if target.value in act.declared_global and value.ref == breaks.REMOVABLE_HANDLE and not self.eager:
                self.graph_break(act, target, breaks.decide_global_hook_handle(), target.value)
            act.env[target.value] = value
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = self.iterate(value, act, target)
            names = [e.value for e in target.elements]
            if elements is None and value.kind in (V.TUPLE, V.LIST) and value.sample is not None:
                elements = [value.sample] * len(names)  # `token_idx, slot = torch.where(mask)`: alike elements
            for i, sub in enumerate(names):
                if isinstance(sub, cst.StarredElement):
                    self.assign(sub.value, V.unknown(), act)
                else:
                    self.assign(sub, elements[i] if elements and i < len(elements) else V.unknown(), act)
        elif isinstance(target, cst.Attribute):
            owner = self.expr(target.value, act)
            setter = self._property_setter(owner, target.attr.value)
            if setter is not None:
                self.call_user(setter, [value], {}, act, target)  # type: ignore[arg-type]
            elif owner.kind == V.CLASS and owner.ref and self.eager:
                self._store_on_class(owner.ref, target.attr.value, value, act)
            elif owner.kind == V.TENSOR and not self.eager and (decision := breaks.decide_tensor_store(
                    target.attr.value, sourced=owner.source is not None, dtype=owner.pytype,
                    new_dtype=value.pytype if value.kind == V.TENSOR else None)) is not None:
                self.graph_break(act, target, decision, f"store to Tensor.{target.attr.value}")
            elif owner.kind == V.OBJECT and target.attr.value == "__class__" and not self.eager:
                self.graph_break(act, target, breaks.decide_class_assignment(), "store to __class__")
            elif owner.kind == V.OBJECT and not self.eager and (decision := breaks.decide_exception_store(
                    owner.ref, target.attr.value)) is not None:
                self.graph_break(act, target, decision, f"store to {owner.ref}.{target.attr.value}")
            elif owner.kind in (V.OBJECT, V.NN_MODULE):
                # a store mid-trace: later reads in this frame see the new value, without a Source
                # (Dynamo tracks the mutation as a side effect; nothing is guarded on it)
                if self.uncertain > act.uncertain_base and value.kind == V.CONST and value.known:
                    # on a path the walk only guesses runs (`if cfg.gradient_checkpointing: self.gc = True`):
                    # the attribute keeps its type, not a value
                    value = Value(V.CONST, pytype=value.pytype, confidence="medium")
                # an object from outside stays itself: its VariableTracker keeps its Source (`self._config =
                # config`, then `self._config.num_layers` is guarded as `G['CONFIG'].num_layers`)
                keeps = value.kind in (V.OBJECT, V.NN_MODULE) and not self.eager
                name = owner.mapped_name(self, target.attr.value, "__setattr__") \
                    if isinstance(owner, UserDefinedObjectVariable) else target.attr.value
                owner.attrs[name] = value if keeps else value.with_(source=None)
                if not self.eager:
                    self.stored.add((id(owner.attrs), name))
        elif isinstance(target, cst.Subscript):
            self.store_item(self.expr(target.value, act), target, value, act)

    def _store_on_class(self, ref: str, name: str, value: Value, act: Act) -> None:
        """`cls.forward = forward` while code runs eagerly (a class decorator). On a path the walk only
        guesses runs (`if not hasattr(cls, "_apply_gate"): cls._apply_gate = ...`) it holds only where
        the class in sight defines no such attribute."""
        found = self.project.klass(ref)
        if self.uncertain > act.uncertain_base and (found is None or any(
                name in klass.methods or name in klass.class_attrs for _, klass in self.project.mro(*found))):
            return
        self.class_stores.setdefault(ref, {})[name] = value.with_(source=None)

    def _property_setter(self, owner: Value, name: str) -> Value | None:
        """`config._attn_implementation = value` where the class defines that property's setter: Python
        calls the setter (and Dynamo inlines it)."""
        found = self.project.klass(owner.ref or "") if owner.kind in (V.OBJECT, V.NN_MODULE) else None
        for mod, klass in self.project.mro(*found) if found is not None else ():
            if name in klass.methods:
                qualname = f"{klass.qualname}.{name}{SETTER}"
                return Value(V.FUNC, ref=f"{mod.module}.{qualname}" if mod.module else qualname, bound_self=owner) \
                    if qualname in mod.functions else None
        return None

    def store_item(self, owner: Value, target: cst.Subscript, value: Value, act: Act) -> None:
        """`state['step'] = 3`, `items[0] = x`: later reads see the new value (without a Source)."""
        if len(target.slice) != 1 or not isinstance(target.slice[0].slice, cst.Index):
            return
        key = self.expr(target.slice[0].slice.value, act)
        if owner.kind == V.OBJECT and isinstance(owner, UserDefinedObjectVariable):
            # `REGISTRY[model] = flags`: Python calls the class's `__setitem__` (a dict subclass's own
            # keying), else dict's on the items the object holds
            if owner.call_dunder(self, "__setitem__", [key, value], {}, act, target) is not None:
                return
            owner = dict_storage(owner) or owner
        if not key.known or owner.items is None:
            return
        if owner.kind == V.DICT and owner.source is not None and owner.keys is not None and not self.eager:
            if REALIZED in owner.attrs:  # an optimizer's param group: realized whole when read
                self.set_in_frame(item_source(owner.source, key.value), value, act, target)
            else:
                self.realize_items(owner, act, target, but=key.value)
                self.use(value, act, target)  # stored in an object from outside: reconstructed after the graph
        stored = value.with_(source=None)
        if owner.kind in (V.DICT, V.NN_MODULE) and owner.keys is not None:  # a dict, a ModuleDict
            set_item(owner.keys, owner.items, key.value, stored)
        elif owner.kind in (V.LIST, V.NN_MODULE) and isinstance(key.value, int) \
                and -len(owner.items) <= key.value < len(owner.items):  # a list, a ModuleList
            owner.items[key.value] = stored

    def realize_items(self, owner: Value, act: Act, node: cst.CSTNode, but: Any = None) -> None:
        """A dict from outside changed in the frame (`group['lr'] = lr`): Dynamo realizes every other
        value it holds, each guarded (a list's length and its items too), and its length (measured)."""
        assert owner.keys is not None and owner.items is not None
        for key, item in zip(owner.keys, owner.items):
            if key != but:
                self._realize(item if item.source is not None else item.with_(source=item_source(owner.source, key)),
                              act, node)

    def set_in_frame(self, source: Source | None, value: Value, act: Act, node: cst.CSTNode,
                     dict_length: int | None = None) -> None:
        """The frame stores `value` where a guard of its own reads (`capturable` of a param group, the
        `lr` of a schedule set inside the step): the next call sees the new value. Noted on that guard's
        WRAP event (a DICT_LENGTH event for a key the dict did not have) for the recompile pass."""
        if self.eager or source is None:
            return
        name = source.name()
        written = repr(value.value) if value.known else None
        origins = [o.name() for o in ([value.source] if value.source is not None else value.origins)]
        if dict_length is not None:
            self.emit(Action.WRAP, act, node, source=name, variable_tracker=V.DICT, guard_kind="DICT_LENGTH",
                      guard=f"DICT_LENGTH: len({name}) == {dict_length}", value=str(dict_length),
                      detail={"set_in_frame": "another key"})
            return
        for event in self.events:
            if event.action is Action.WRAP and event.source == name and event.frame == self.frame.name:
                event.detail["set_in_frame"] = written
                event.detail["set_in_frame_from"] = origins

    def _realize(self, value: Value, act: Act, node: cst.CSTNode, depth: int = 0) -> None:
        self.use(value, act, node)
        if value.kind in (V.LIST, V.TUPLE) and depth < 4:
            self.length_check(value, act, node)
            for element in value.unpack_var_sequence(self, act, node) or []:
                self._realize(element, act, node, depth + 1)

    def aug_assign(self, node: cst.AugAssign, act: Act) -> None:
        current = self.expr(node.target, act)
        right = self.expr(node.value, act)
        op = _AUGOPS.get(type(node.operator))
        self.assign(node.target, self.arith(current, right, op, act, node), act)

    # truthiness ----------------------------------------------------------------
    def truth(self, value: Value, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        """A jump on `value` (Dynamo's generic_jump): the VariableTracker decides."""
        return value.truth(self, act, node, construct)

    # expressions ---------------------------------------------------------------
    def expr(self, node: cst.BaseExpression, act: Act) -> Value:
        self.tick()
        handler = getattr(self, f"e_{type(node).__name__}", None)
        if handler is None:
            for child in node.children:
                if isinstance(child, cst.BaseExpression):
                    self.expr(child, act)
            return V.unknown()
        value = handler(node, act)
        if V.TOO_LARGE in value.attrs:
            value = V.noted(self, value, act, node)
        if value.source is not None and isinstance(node, _READS) and not self.eager:
            if isinstance(node, cst.Name) and value.read_at is not None and not (
                    type(value.source) is LocalSource and value.source.local_name == node.value):
                return value  # a local holding what was read from outside: its guards are reported at that read
            return value.with_(read_at=node)
        return value

    def e_Integer(self, node: cst.Integer, act: Act) -> Value:
        try:
            return V.const(int(node.value.replace("_", ""), 0))
        except ValueError:  # a decimal literal past Python's 4,300 digits (its compiler rejects it too)
            return V.too_large("int", described(0))

    def e_Float(self, node: cst.Float, act: Act) -> Value:
        return V.const(float(node.value.replace("_", "")))

    def e_SimpleString(self, node: cst.SimpleString, act: Act) -> Value:
        try:
            return V.const(node.evaluated_value)
        except Exception:  # noqa: BLE001 - odd prefixes
            return V.unknown()

    def e_ConcatenatedString(self, node: cst.ConcatenatedString, act: Act) -> Value:
        return V.const(node.evaluated_value) if isinstance(node.evaluated_value, str) else V.unknown()

    def e_FormattedString(self, node: cst.FormattedString, act: Act) -> Value:
        """FORMAT_VALUE / BUILD_STRING: of constants, a constant (`f"output_{k}"` names an attribute)."""
        pushed = 0  # each piece before a `{value}` waits on the stack until BUILD_STRING
        pieces: list[str] | None = []
        used: list[Value] = []
        try:
            for part in node.parts:
                if isinstance(part, cst.FormattedStringExpression):
                    value = self.expr(part.expression, act)
                    self.use(value, act, part)
                    used.append(value)
                    text = _formatted(value, part) if pieces is not None else None
                    pieces = None if text is None or pieces is None else [*pieces, text]
                elif pieces is not None and isinstance(part, cst.FormattedStringText):
                    pieces.append(part.value.replace("{{", "{").replace("}}", "}"))
                pushed += 1
                self.stack_depth += 1
        finally:
            self.stack_depth -= pushed
        if pieces is None:
            return Value(V.CONST, pytype="str")
        return _weakest(V.const("".join(pieces)), *used)

    def e_Name(self, node: cst.Name, act: Act) -> Value:
        name = node.value
        if name in act.env:
            value = act.env[name]
            if not self.eager and value.kind == V.OBJECT and type(value.source) is LocalSource:
                return _first_reach(self, value, value.source)  # `cfg`, also reached as `model.cfg` first
            if not self.eager and (refused := value.wrap_refused()) is not None:
                self.graph_break(act, node, refused, name)
            return value
        if name in act.closure:
            return act.closure[name]
        if name in ("True", "False", "None"):
            return V.const({"True": True, "False": False, "None": None}[name])
        value = self.global_value(act.parsed.summary, name, act)
        if not self.eager and (refused := value.wrap_refused()) is not None:
            self.graph_break(act, node, refused, name)
        return value

    def e_Attribute(self, node: cst.Attribute, act: Act) -> Value:
        owner = node.value
        self.init_chained |= node.attr.value == "__init__" and self.eager > 0
        if isinstance(owner, cst.Call) and not owner.args and dotted(owner.func) == "super" and act.cls:
            receiver = act.env.get("self")
            if not self.eager and receiver is not None and (refused := receiver.wrap_refused()) is not None:
                self.graph_break(act, node, refused, "self")  # `super()` reads `self` first
            found = self._super_attr(act, node.attr.value)
            if found is not None:
                return found
            if node.attr.value == "__init__" and self._reinitializes_module(act):
                self.graph_break(act, node, breaks.decide_module_reinit(), "super().__init__")
                return V.unknown()
        return self.getattr(self.expr(owner, act), node.attr.value, act, node)

    def _reinitializes_module(self, act: Act) -> bool:
        """`super().__init__()` reaching nn.Module's own `__init__` on a module that existed before the frame:
        Dynamo runs nn.Module.__init__ only on one the frame itself made."""
        found = self.project.klass(act.cls or "")
        receiver = act.env.get("self")
        return not self.eager and found is not None and receiver is not None and receiver.kind == V.NN_MODULE \
            and receiver.source is not None and set(self.project.external_bases(*found)) <= _NN_MODULE_NAMES

    def _super_attr(self, act: Act, name: str) -> Value | None:
        """`super().name` in a method: the next class of the project's MRO that defines it."""
        found = self.project.klass(act.cls or "")
        receiver = act.env.get("self")
        if found is None or receiver is None:
            return None
        for mod, klass in self.project.mro(*found)[1:]:
            if name in klass.methods:
                ref = f"{mod.module}.{klass.qualname}.{name}" if mod.module else f"{klass.qualname}.{name}"
                return Value(V.FUNC, ref=ref, bound_self=receiver)
        builtin = self.objects.builtin_method(*found, name)  # `super().forward(ids)` in a subclass of nn.Embedding
        if builtin is not None:
            return Value(V.FUNC, ref=builtin, bound_self=receiver)
        kind = container_of(self.project, receiver) if name == "__init__" else None
        if kind is not None:  # `super().__init__(conv, norm, act)` of a Sequential subclass: modelled natively
            return Value(V.LIB, ref=f"torch.nn.{kind}.__init__", bound_self=receiver)
        storage = dict_storage(receiver) if receiver.kind == V.OBJECT and name in DICT_STORAGE_METHODS else None
        if storage is not None:  # `super().__getitem__(key)` of a dict subclass: dict's own, on its items
            return Value(V.LIB, ref=f"dict.{name}", bound_self=storage)
        if name == "__init__" and receiver.kind == V.OBJECT and is_dict_subclass(self.project, *found):
            # `super().__init__(*args, **kwargs)` in a dict subclass's `__init__` (diffusers' FrozenDict): its items
            return Value(V.LIB, ref="dict.__init__", bound_self=receiver)
        if receiver.kind == V.NN_MODULE and name in MODULE_METHODS:
            # `out = super().train(mode)` in an override: nn.Module's own, modelled natively (returns the module)
            return Value(V.LIB, ref=f"torch.nn.Module.{name}", bound_self=receiver)
        return base_method(self.project, receiver, name)  # `super().__init__(params, defaults)` of an optimizer

    def e_Subscript(self, node: cst.Subscript, act: Act) -> Value:
        base = self.expr(node.value, act)
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            parts = [self._subscript_part(element, act, node) for element in node.slice]
            bounds = parts[0][1] if len(parts) == 1 and parts[0][0] == "slice" else None
            if base.kind in (V.LIST, V.TUPLE):
                self.length_check(base, act, node)
            if base.kind == V.NN_MODULE and bounds is not None:
                return _module_slice(base, bounds)
            if base.kind in (V.LIST, V.TUPLE) and bounds is not None:
                return _sequence_slice(base, bounds)
            if base.kind != V.TENSOR:
                return V.unknown()
            self.frame.graph_ops += 1  # `x[:, :n]`: a getitem node
            found = view(base, parts)  # `prompt[:, t]`: a view, with the strides of the tensor it is cut from
            sizes, steps = found if found is not None else (None, None)
            return Value(V.TENSOR, items=sizes, pytype=base.pytype, attrs=view_attrs(sizes, steps))
        index = self.expr(node.slice[0].slice.value, act)
        return self.getitem(base, index, act, node)

    def _subscript_part(self, element: cst.SubscriptElement, act: Act, node: cst.CSTNode) -> tuple[str, Any]:
        """One element of `x[:, t, ..., None]`: a slice's bounds, an index, or the ellipsis; each value
        used (an int read from outside is guarded where it indexes)."""
        if isinstance(element.slice, cst.Slice):
            bounds = [self.expr(p, act) if p is not None else None
                      for p in (element.slice.lower, element.slice.upper, element.slice.step)]
            for bound in bounds:
                if bound is not None:
                    self.use(bound, act, node)
            return "slice", bounds
        if isinstance(element.slice.value, cst.Ellipsis):
            return "ellipsis", None
        value = self.expr(element.slice.value, act)
        self.use(value, act, node)
        return "index", value

    def e_BinaryOperation(self, node: cst.BinaryOperation, act: Act) -> Value:
        """`a + b + c` is `(a + b) + c`: the chain is walked in a loop, not a recursion as deep as it
        is long (a generated `1 + 1 + ...` of thousands of terms)."""
        chain = [node]
        while isinstance(chain[-1].left, cst.BinaryOperation):
            chain.append(chain[-1].left)
        left = self.expr(chain[-1].left, act)
        for inner in reversed(chain):
            self.stack_depth += 1  # the left operand waits on the stack
            try:
                right = self.expr(inner.right, act)
            finally:
                self.stack_depth -= 1
            left = self.arith(left, right, BINOPS.get(type(inner.operator)), act, inner)
            if inner is not node:
                self.tick()
                left = V.noted(self, left, act, inner) if V.TOO_LARGE in left.attrs else left
        return left

    def e_UnaryOperation(self, node: cst.UnaryOperation, act: Act) -> Value:
        value = self.expr(node.expression, act)
        if isinstance(node.operator, cst.Not):
            checked = value.kind != V.TENSOR or (self.eager and HEALTHY in value.attrs)  # `not torch.isfinite(n)`
            taken = self.truth(value, act, node, "not-if") if checked else None
            return _weakest(V.const(not taken), value) if taken is not None else Value(V.CONST, pytype="bool")
        if value.kind == V.TENSOR:
            return value
        self.use(value, act, node)
        if value.kind == V.CONST and value.known and isinstance(node.operator, cst.Minus):
            return V.compute(operator.neg, value.value).with_(origins=V.origins(value))
        return Value(V.CONST, pytype=value.pytype, origins=V.origins(value)) if value.kind == V.CONST else V.unknown()

    def e_BooleanOperation(self, node: cst.BooleanOperation, act: Act) -> Value:
        """`a and b and c` is `(a and b) and c`: walked in a loop, as `e_BinaryOperation`."""
        chain = [node]
        while isinstance(chain[-1].left, cst.BooleanOperation):
            chain.append(chain[-1].left)
        value = self.expr(chain[-1].left, act)
        for inner in reversed(chain):
            if inner is not node:
                self.tick()
            value = self._boolean(inner, value, act)
        return value

    def _boolean(self, node: cst.BooleanOperation, left: Value, act: Act) -> Value:
        construct = "and" if isinstance(node.operator, cst.And) else "or"
        taken = self.truth(left, act, node.left, construct)
        if taken is None:
            right = self.expr(node.right, act)
            if right.kind == V.CONST and right.known and bool(right.value) == (construct == "or"):
                return right  # `... and False` is falsy, `... or True` truthy, whichever side answers
            if right.kind == V.CONST and right.source is not None:
                # `q_len > 1 and mask is None and module.is_causal`: Dynamo, which knows the left side,
                # hands the read value on; where it is used, its guard is installed
                return Value(V.CONST, source=right.source, pytype=right.pytype, confidence="medium",
                             read_at=right.read_at)
            return V.unknown("medium")
        if (construct == "and") == taken:
            return self.expr(node.right, act)
        return left

    def e_Comparison(self, node: cst.Comparison, act: Act) -> Value:
        left = self.expr(node.left, act)
        result: Value = V.unknown()
        for target in node.comparisons:
            right = self.expr(target.comparator, act)
            result = self.compare(left, right, target.operator, act, node)
            left = right
        return result

    def e_IfExp(self, node: cst.IfExp, act: Act) -> Value:
        taken = self.truth(self.expr(node.test, act), act, node.test, "ternary")
        if taken is True:
            return self.expr(node.body, act)
        if taken is False:
            return self.expr(node.orelse, act)
        self.expr(node.body, act)
        self.expr(node.orelse, act)
        return V.unknown("medium")

    def e_List(self, node: cst.List, act: Act) -> Value:
        return self._sequence(V.LIST, node.elements, act)

    def e_Tuple(self, node: cst.Tuple, act: Act) -> Value:
        return self._sequence(V.TUPLE, node.elements, act)

    def e_Set(self, node: cst.Set, act: Act) -> Value:
        return sets.set_of(self._sequence(V.LIST, node.elements, act).items)

    def _sequence(self, kind: str, elements: Any, act: Act) -> Value:
        """`(a, b)`, `[*xs, n]`. Spreading a sequence of unknown length leaves the length unknown; the
        elements written out are kept apart (`PARTS`): an op given the sequence still uses them
        (`x.view((*shape, -1, self.head_dim))` guards `head_dim`)."""
        out: list[Value] | None = []
        parts: list[Value] = []
        for element in elements:
            value = self.expr(element.value, act)
            if isinstance(element, cst.StarredElement):
                spread = self.iterate(value, act, element)
                out = None if spread is None or out is None else out + spread
            else:
                parts.append(value)
                if out is not None:
                    out.append(value)
        if out is not None and len(out) > MAX_ITEMS:  # `xs = [*xs, *xs]` in a loop
            return V.too_large(None, ITEMS, kind=kind)
        return Value(kind, items=out, attrs={V.PARTS: Value(V.LIST, items=parts)} if out is None and parts else {})

    def e_Dict(self, node: cst.Dict, act: Act) -> Value:
        keys: list[Any] = []
        items: list[Value] = []
        for element in node.elements:
            if not isinstance(element, cst.DictElement):  # `{**defaults, **overrides}`: later keys win
                spread = self.expr(element.value, act)
                if spread.kind != V.DICT or spread.keys is None or spread.items is None:
                    return V.unknown("medium")
                for key, item in zip(spread.keys, spread.items, strict=True):
                    set_item(keys, items, key, item)
                continue
            key = self.expr(element.key, act)
            value = self.expr(element.value, act)
            if key.kind != V.CONST or not key.known:
                return V.unknown("medium")
            set_item(keys, items, key.value, value)
        return Value(V.DICT, keys=keys, items=items)

    def e_ListComp(self, node: cst.ListComp, act: Act) -> Value:
        self._comprehension_frame(node, "<listcomp>", act)
        items, sample = self.comprehension_with_sample(node.for_in, lambda: self.expr(node.elt, act), act)
        return Value(V.LIST, items=items, sample=sample)

    def e_GeneratorExp(self, node: cst.GeneratorExp, act: Act) -> Value:
        items = self.comprehension(node.for_in, lambda: self.expr(node.elt, act), act)
        return Value(V.TUPLE, items=items)

    def e_SetComp(self, node: cst.SetComp, act: Act) -> Value:
        self._comprehension_frame(node, "<setcomp>", act)
        return sets.set_of(self.comprehension(node.for_in, lambda: self.expr(node.elt, act), act))

    def e_DictComp(self, node: cst.DictComp, act: Act) -> Value:
        self._comprehension_frame(node, "<dictcomp>", act)
        pairs = self.comprehension(
            node.for_in, lambda: Value(V.TUPLE, items=[self.expr(node.key, act), self.expr(node.value, act)]), act)
        if pairs is None or not all(p.items and p.items[0].kind == V.CONST and p.items[0].known for p in pairs):
            return V.unknown("medium")
        return Value(V.DICT, keys=[p.items[0].value for p in pairs if p.items],
                     items=[p.items[1] for p in pairs if p.items])

    def _comprehension_frame(self, node: cst.CSTNode, name: str, act: Act) -> None:
        """Before Python 3.12 (PEP 709) a list, set or dict comprehension is a function of its
        own, which Dynamo inlines: `f.<locals>.<listcomp>`."""
        if sys.version_info < (3, 12):
            qualname = f"{act.qualname}.<locals>.{name}"
            self.emit(Action.INLINE, act, node, callee=self.callee_name(act.parsed, qualname),
                      variable_tracker=V.FUNC, detail={"qualname": qualname})
            if self.replaying and act.depth == 0 and not self.comprehending:
                self._comprehensions[id(node.for_in)] = (node, name)  # type: ignore[attr-defined]

    def comprehension(self, comp: cst.CompFor, produce: Any, act: Act) -> list[Value] | None:
        """Unrolled as Dynamo inlines the comprehension's code."""
        items, _ = self.comprehension_with_sample(comp, produce, act)
        return items

    def comprehension_with_sample(self, comp: cst.CompFor, produce: Any,
                                  act: Act) -> tuple[list[Value] | None, Value | None]:
        """The elements, or, over an iterable of unknown length, None and one element made with an
        unknown loop variable (`[Block(cfg, i) for i in range(cfg.n_layer)]`: a Block)."""
        saved = dict(act.env)
        out: list[Value] = []
        act.loops += 1
        self.comprehending += 1
        try:
            self._comp_level(comp, produce, act, out)
        except _Unrolled:
            return None, (out[0] if len(out) == 1 else None)
        finally:
            act.loops -= 1
            self.comprehending -= 1
            act.env.clear()
            act.env.update(saved)
        return out, None

    def _comp_level(self, comp: cst.CompFor, produce: Any, act: Act, out: list[Value]) -> None:
        iterable = self.expr(comp.iter, act)
        recorded = self._comprehensions.pop(id(comp), None)
        if recorded is not None and (iterator := comprehensions.iterator_type(iterable)) is not None \
                and self._compiles_comprehension(recorded[0], act):
            self.comprehension_frames.append(comprehensions.ComprehensionFrame(*recorded, iterator))
        elements = self.iterate(iterable, act, comp.iter, unrolled=True)
        # of unknown length: one element stands for all, the first when it is known (range(n) starts at 0)
        first = iterable.first() if isinstance(iterable, RangeVariable) else V.unknown()
        filtered = False  # an element kept by a condition the walk cannot decide: the length is not known
        limit = MAX_EAGER_UNROLL if self.eager else MAX_UNROLL
        if elements is not None and len(elements) > limit:
            raise _Unrolled  # cut short, the result would be a wrong value, not a partial one
        spent = self.steps + self.eager_steps
        for done, element in enumerate(elements if elements is not None else [first]):
            if self.eager and self.steps + self.eager_steps - spent > MAX_COMPREHENSION_STEPS:
                # a table computed element by element (1,000 betas, a dataset of graphs): not followed further,
                # not to starve the rest of the run; a plain one keeps its length, its other elements unknown
                if elements is None or comp.ifs or comp.inner_for_in is not None:
                    raise _Unrolled
                out.extend(V.unknown() for _ in range(len(elements) - done))
                return
            self.assign(comp.target, element, act)
            kept = [self.truth(self.expr(cond.test, act), act, cond, "if") for cond in comp.ifs]
            if False in kept:
                continue
            filtered = filtered or None in kept
            if comp.inner_for_in is not None:
                self._comp_level(comp.inner_for_in, produce, act, out)
            else:
                result = produce()
                out.append(result if isinstance(result, Value) else V.unknown())
        if elements is None or filtered:
            raise _Unrolled

    def e_Lambda(self, node: cst.Lambda, act: Act) -> Value:
        key = f"local:{id(node)}"
        self.local_funcs[key] = (act.parsed, node, _cells(act), act.cls)
        return Value(V.FUNC, ref=key)

    def e_Call(self, node: cst.Call, act: Act) -> Value:
        func, args, kwargs = self.call_parts(node, act)
        name = node.func.value if isinstance(node.func, cst.Name) else None
        if func.kind == V.UNKNOWN and name in breaks.BUILTIN_EXCEPTIONS and not self.eager:
            # a builtin exception made in the frame: Dynamo's ExceptionVariable, positional arguments only
            if kwargs:
                self.graph_break(act, node, breaks.decide_exception_keywords(), name)
            return Value(V.OBJECT, ref=f"builtins.{name}")
        return self.call(func, args, kwargs, act, node)

    def call_parts(self, node: cst.Call, act: Act) -> tuple[Value, list[Value], dict[str, Value]]:
        """The callable and the arguments of a call, evaluated in Python's order."""
        func = self.expr(node.func, act)
        self.first_read(func, act, node.func)
        args: list[Value] = []
        kwargs: dict[str, Value] = {}
        pushed = 1  # the callable, then each argument, wait on the stack while the next is evaluated
        self.stack_depth += 1
        try:
            for arg in node.args:
                value = self.expr(arg.value, act)
                if arg.star == "*":
                    spread = self.iterate(value, act, arg.value)
                    args += spread if spread is not None else []
                elif arg.star == "**":
                    if value.kind == V.DICT and value.keys is not None and value.items is not None:
                        kwargs.update({str(k): v for k, v in zip(value.keys, value.items)})
                    elif func.kind == V.LIB and func.ref in DICT_MAKERS:
                        func = V.unknown()  # `OrderedDict(**a, **b)` of an `a` or `b` the walk does not know
                elif arg.keyword is not None:
                    kwargs[arg.keyword.value] = value
                else:
                    args.append(value)
                pushed += 1
                self.stack_depth += 1
        finally:
            self.stack_depth -= pushed
        return func, args, kwargs

    def e_Yield(self, node: cst.Yield, act: Act) -> Value:
        """A generator run eagerly (`for xb, yb in batches(x, y, bs)`) collects what it yields."""
        value = self.expr(node.value, act) if isinstance(node.value, cst.BaseExpression) else V.const(None)
        if isinstance(node.value, cst.From):
            inner = self.expr(node.value.item, act)
            items = self.iterate(inner, act, node.value.item)
            if items is None:
                act.yields_known = False
            values = items or []
        else:
            values = [value]
        if act.yields is not None:
            act.yields_known = act.yields_known and self.uncertain <= act.uncertain_base
            act.yields.extend(values)
        return V.unknown()  # what `send()` passes in

    def e_Await(self, node: cst.Await, act: Act) -> Value:
        self.expr(node.expression, act)
        return V.unknown()

    def e_NamedExpr(self, node: cst.NamedExpr, act: Act) -> Value:
        value = self.expr(node.value, act)
        self.assign(node.target, value, act)
        return value

    # operations ----------------------------------------------------------------
    def arith(self, left: Value, right: Value, op: Any, act: Act, node: cst.CSTNode) -> Value:
        if V.TENSOR in (left.kind, right.kind):
            for side in (left, right):
                self.use(side, act, node)
            self.frame.graph_ops += 1
            flag = grad_of([left, right], self.grad_enabled) if self.eager else None
            shape = None  # the sizes, in traced code too: the rank is static (`x.dim()` in library code)
            if V.UNKNOWN not in (left.kind, right.kind):
                shape = matmul(left, right) if op is operator.matmul else broadcast(left, right)
            made = Value(V.TENSOR, items=shape, attrs={"requires_grad": flag} if flag is not None else {})
            return with_values(made, elementwise(op, left, right)) if self.eager and op is not None else made
        if (united := sets.combine(op, left, right)) is not None:
            return united
        if left.kind == right.kind == V.CONST and (UNSPECIALIZED in left.attrs or UNSPECIALIZED in right.attrs):
            self.graph_break(act, node, breaks.decide_unspecialized_arithmetic(in_root_frame=act.depth == 0),
                             "arithmetic on a replayed number")
            return V.unknown()
        if left.kind == right.kind == V.CONST:
            self.use(left, act, node)
            self.use(right, act, node)
            origins = V.origins(left, right)
            if left.known and right.known and op is not None:
                return _weakest(V.compute(op, left.value, right.value), left, right).with_(origins=origins)
            if (absorbed := _absorbing(op, left, right)) is not None:
                return _weakest(V.const(absorbed), left, right)
            return Value(V.CONST, pytype=_result_type(left.pytype, right.pytype), origins=origins,
                         attrs={**V.derived(op, left, right), **V.carried(left, right)})
        absorbed = _absorbing(op, left, right)
        if absorbed is not None:
            for side in (left, right):
                self.use(side, act, node)
            return _weakest(V.const(absorbed), left, right)
        if op is operator.add and left.kind == right.kind and left.kind in (V.LIST, V.TUPLE):
            self.length_check(left, act, node)
            self.length_check(right, act, node)
            if left.items is not None and right.items is not None:
                if len(left.items) + len(right.items) > MAX_ITEMS or \
                        not self.allowance.take(len(left.items) + len(right.items)):
                    return V.too_large(None, ITEMS, kind=left.kind)
                return Value(left.kind, items=left.items + right.items)
        if op is operator.mul and (repeated := self._repeated(left, right, act, node)) is not None:
            return repeated
        # any other binary op still realizes its operands: the constants are guarded (a tuple's items
        # too: `x.size()[:-1] + (self.heads, self.head_dim)` is a shape built of them)
        for side in (left, right):
            self.use(side, act, node)
            if side.kind in (V.LIST, V.TUPLE) and side.items is not None:
                for item in side.items:
                    self.use(item, act, node)
        if V.UNKNOWN in (left.kind, right.kind):
            self.frame.graph_ops += 1  # most likely tensor math on a value the walk cannot type
        return V.unknown()

    def _repeated(self, left: Value, right: Value, act: Act, node: cst.CSTNode) -> Value | None:
        """`["sparse"] * (n - 1)` (or `n * [...]`): a list or tuple of known items repeated a known number
        of times (the count guarded, as Dynamo's ConstantVariable is); None when either is not known."""
        seq, count = (left, right) if left.kind in (V.LIST, V.TUPLE) else (right, left)
        if seq.kind not in (V.LIST, V.TUPLE) or seq.items is None or count.kind != V.CONST or not count.known \
                or not isinstance(count.value, int) or isinstance(count.value, bool):
            return None
        self.length_check(seq, act, node)
        self.use(count, act, node)
        times = max(count.value, 0)
        if len(seq.items) * times > MAX_ITEMS or not self.allowance.take(len(seq.items) * times):
            return V.too_large(None, ITEMS, kind=seq.kind)
        return Value(seq.kind, items=seq.items * times)

    def compare(self, left: Value, right: Value, op: cst.BaseCompOp, act: Act, node: cst.CSTNode) -> Value:
        if left.ref == right.ref == DATA_PTR and isinstance(op, (cst.Equal, cst.NotEqual)):
            self.graph_break(act, node, breaks.decide_data_ptr_compare(self.settings), "data_ptr comparison")
            return Value(V.CONST, pytype="bool")
        fake = (FAKE_ID in left.attrs) + (FAKE_ID in right.attrs)
        if fake and not (fake == 2 and isinstance(op, (cst.Equal, cst.NotEqual))):
            self.graph_break(act, node, breaks.decide_fake_id_compare(), "comparison of an id()")
            return Value(V.CONST, pytype="bool")
        if V.TENSOR in (left.kind, right.kind) and not isinstance(op, (cst.Is, cst.IsNot)):
            for side in (left, right):
                self.use(side, act, node)
            self.frame.graph_ops += 1
            made = Value(V.TENSOR, items=broadcast(left, right) if self.eager else None, pytype="bool")
            fn = _CMPOPS.get(type(op))
            # `idx == i` of a tensor whose elements eager code knows: the mask, element by element
            return with_values(made, elementwise(fn, left, right)) if self.eager and fn is not None else made
        if isinstance(op, (cst.Is, cst.IsNot)):
            for side in (left, right):
                if side.kind in (V.CONST, V.ENUM):
                    self.use(side, act, node)  # realized: NONE_MATCH, EQUALS_MATCH (`top_k is not None`), ID_MATCH
            same = _identity(left, right)
            if same is None:
                return Value(V.CONST, pytype="bool")
            # `mask is None` on a guessed default is only as sure as the guess
            weak = "low" in (left.confidence, right.confidence)
            return V.const(same if isinstance(op, cst.Is) else not same, confidence="low" if weak else "high")
        if isinstance(op, (cst.In, cst.NotIn)):
            contains = right.call_dunder(self, "__contains__", [left], {}, act, node) \
                if isinstance(right, UserDefinedObjectVariable) else None
            if contains is not None:
                return contains if isinstance(op, cst.In) or contains.kind != V.CONST or not contains.known \
                    else V.const(not contains.value, confidence=contains.confidence)
            self.use(left, act, node)
            if right.kind in (V.CONST, V.SET):  # a string searched, a set from outside: its value is guarded
                self.use(right, act, node)
            if right.kind in (V.LIST, V.TUPLE):
                self.length_check(right, act, node)
            found = _membership(left, right, eager=bool(self.eager))
            if found is None:
                return Value(V.CONST, pytype="bool")
            return _weakest(V.const(found if isinstance(op, cst.In) else not found), left, right)
        if left.kind == V.ENUM or right.kind == V.ENUM:
            self.use(left, act, node)
            self.use(right, act, node)
            if left.known and right.known:
                return V.const(left.value == right.value if isinstance(op, cst.Equal) else left.value != right.value)
            return Value(V.CONST, pytype="bool")
        self.use(left, act, node)
        self.use(right, act, node)
        fn = _CMPOPS.get(type(op))
        if (same := sets.compared(fn, left, right)) is not None:
            return same
        if left.kind == right.kind == V.CLASS and isinstance(op, (cst.Equal, cst.NotEqual)) \
                and (one := _identity(left, right)) is not None:
            # `type(a) != type(b)`, `sub.config.__class__ != self.config.__class__`: classes compare by identity
            return V.const(one == isinstance(op, cst.Equal))
        if left.kind == right.kind == V.CONST and left.known and right.known and fn is not None:
            return _weakest(V.compute(fn, left.value, right.value), left, right)
        return Value(V.CONST, pytype="bool")

    def iterate(self, value: Value, act: Act, node: cst.CSTNode, unrolled: bool = False) -> Sequence[Value] | None:
        """GET_ITER / FOR_ITER: the elements Dynamo unrolls a `for` over. A loop that unrolls them one by
        one (`unrolled`) gets a range as it is, read only as far as the loop goes (`range(10**12)`);
        anything else (`list(...)`, a spread, unpacking) gets at most MAX_ITEMS elements, else None."""
        self.first_read(value, act, node)
        elements = value.unpack_var_sequence(self, act, node)
        if elements is None or unrolled:
            return elements
        if len(elements) > MAX_ITEMS or not self.allowance.take(len(elements)):
            V.noted(self, V.too_large(None, ITEMS, kind=V.LIST), act, node)
            return None
        return elements if isinstance(elements, list) else list(elements)

    def getitem(self, base: Value, index: Value, act: Act, node: cst.CSTNode) -> Value:
        """BINARY_SUBSCR."""
        self.first_read(base, act, node)
        return base.getitem(self, index, act, node)

    # names -----------------------------------------------------------------------
    def global_value(self, summary: ModuleSummary, name: str, act: Act | None = None,
                     reached_as: Source | None = None) -> Value:
        """A global of `summary`'s module as Dynamo wraps it, with its GlobalSource (`reached_as`: the
        Source of the name the code read, a global of its own module that imported it)."""
        source = reached_as or self._global_source(summary, name)
        if name in summary.functions:
            return Value(V.FUNC, ref=f"{summary.module}.{name}" if summary.module else name, source=source)
        if name in summary.classes:
            return Value(V.CLASS, ref=f"{summary.module}.{name}" if summary.module else name, source=source)
        key = f"{summary.display}:{name}"
        executed = self.module_envs.get(summary.display)
        if executed is None and summary.import_effects and (self.eager or not self.project.is_library(summary.display)):
            executed = self.import_module(summary)  # may fill the object (`REGISTRY[name] = cls` in a decorator)
        if key in self.global_objects:  # the one object, as the import, or the frame's caller, left it
            return _first_reach(self, self.global_objects[key], source)
        if executed is not None and name in executed:
            value = executed[name]  # the module's namespace as its top level (walked eagerly) left it
            # (a flag its import set, `if is_torch_available(): _is_torch_available = True`, read by its Source)
            return value.with_(source=source) if value.kind == V.CONST and value.source is None else value
        if name in summary.globals:
            value = self.materialize(summary.globals[name], summary, source, act)
            if name in summary.reassigned and value.kind == V.CONST:
                # `_HAS_X = False` then `if ...: _HAS_X = True` at module level: which assignment ran
                # last is the run's business; the type stays, the value is not known
                value = Value(V.CONST, source=value.source, pytype=value.pytype, confidence="medium")
            elif name in summary.reassigned and value.confidence == "high":
                value = value.with_(confidence="medium")
            if value.kind in _MUTABLE:  # one object, whoever reads it: a store is seen by every later read
                self.global_objects[key] = value
            return value
        if name in summary.imports:
            return self.dotted_value(summary.imports[name], source)
        if name in BUILTIN_NAMES:
            return Value(V.BUILTIN, ref=name)
        if summary.star_imports:
            target = self.project.star_binding(summary, name)
            if target is not None:
                return self.dotted_value(target, source)
            self.notes.append(f"`{name}` may come from a star-import; its value is unknown")
        return V.unknown()

    def _module_objects(self) -> dict[str, Value]:
        """The objects module globals hold now ("display:name"), the instances in the modules whose top
        level the walk ran included: what a compiled call made here finds (`REGISTRY[model] = flags` in
        a constructor, read back in `forward`). The project's scripts give their data too (`cfg =
        json.load(f)`, `scale = cfg["scale"]`): values their top level computed, which their text alone
        does not tell."""
        found = {f"{display}:{name}": value for display, env in self.module_envs.items()
                 for name, value in env.items()
                 if value.kind == V.OBJECT or (value.kind in _SCRIPT_DATA and V.TOO_LARGE not in value.attrs
                                                and not self.project.is_library(display))}
        return found | self.global_objects

    def _global_source(self, summary: ModuleSummary, name: str) -> Source:
        if summary.display == self.entry.partition(":")[0]:
            return GlobalSource(name)
        return AttrSource(ImportedModuleSource(summary.module), name)

    def dotted_value(self, name: str, source: Source | None) -> Value:
        """A name imported from elsewhere: project code, an installed package, or torch."""
        if name in PARSERS:
            return Value(V.LIB, ref=name)  # `from yaml import safe_load`: modelled, not read from the package
        found = self.project.split(name)
        if found is not None and name not in self.resolving:  # re-export cycles (`a` imports `x` from `b`, `b` from `a`)
            summary, rest = found
            if not rest:
                return Value(V.LIB, ref=name)
            head = rest.split(".")[0]
            self.resolving.add(name)
            try:
                value = self.global_value(summary, head, reached_as=source if head == rest else None)
                for attr in rest.split(".")[1:]:
                    value = self.getattr(value, attr, None, None)
            finally:
                self.resolving.discard(name)
            if value.kind != V.UNKNOWN:
                return value.with_(source=value.source if value.kind != V.CONST else source)
        if source is not None and name.rpartition(".")[2] not in DTYPE_NAMES:
            # one module object however it is named (`import torch as T`): Dynamo reuses the
            # VariableTracker of its first access, and reads its dtypes through that Source (the
            # first access by the user's code: torch.nn's own modules are not counted, measured)
            owner = source.parent if isinstance(source, AttrSource) else None
            if (isinstance(owner, ImportedModuleSource) and owner.module.startswith("torch.")) or self.uncertain \
                    or self.eager:
                source = self.module_sources.get(name, source)  # a guessed path (or no trace) is no first access
            else:
                source = self.module_sources.setdefault(name, source)
        return Value(V.LIB, ref=name, source=source)

    def _closure_made(self, ref: str, lit: Value, summary: ModuleSummary, act: Act | None) -> Value | None:
        """`_pair = _ntuple(2, "_pair")` at module level: a factory whose body returns a function it
        defines is run, as the import ran it, so the global is that closure (over `n = 2`)."""
        found = self.function_node(Value(V.FUNC, ref=ref))
        if found is None or not isinstance(found[1], cst.FunctionDef) or not _returns_own_def(found[1]):
            return None
        made = self._run_as_imported(ref, found[0], found[1], lit, summary, act)
        return made if made is not None and made.kind == V.FUNC else None

    def _run_as_imported(self, ref: str, parsed: Parsed, fn: cst.FunctionDef, lit: Value, summary: ModuleSummary,
                         act: Act | None) -> Value | None:
        """What the module-level call `lit` of the function `ref` returned when the import ran it (None: the
        walk of it stopped)."""
        args = [self.materialize(a, summary, None, act) for a in lit.items or ()]
        kwargs = {k: self.materialize(a, summary, None, act) for k, a in lit.attrs.items()}
        with self._outside_trace():
            try:
                return self.call(Value(V.FUNC, ref=ref), args, kwargs, Act(parsed, MODULE_FRAME, {}),
                                 fn)  # type: ignore[arg-type]
            except WalkAborted[:-1]:
                return None

    def _ran_at_import(self, ref: str, lit: Value, summary: ModuleSummary, act: Act | None) -> Value | None:
        """The constant a module-level call of a function declared to return a scalar gave when the
        module was imported, when the walk of it knows it (`is_torch_xpu_available()`: False)."""
        defined = self.project.function(ref)  # where it is defined, not the re-export (`transformers.utils`)
        ref = f"{defined[0].module}.{defined[1].qualname}" if defined is not None and defined[0].module else ref
        found = self.function_node(Value(V.FUNC, ref=ref))
        if found is None or not isinstance(found[1], cst.FunctionDef):
            return None
        made = self._run_as_imported(ref, found[0], found[1], lit, summary, act)
        return made if made is not None and made.kind == V.CONST and made.known else None

    def materialize(self, lit: Value, summary: ModuleSummary, source: Source | None, act: Act | None) -> Value:
        """A literal from a summary (module/class level) as the value Dynamo sees at runtime."""
        if lit.kind == V.CONST:
            return lit.with_(source=source)
        if lit.kind == V.SET:  # `KINDS = {"relu", "gelu"}`: its constants, each once
            members = [self.materialize(i, summary, None, act) for i in lit.items] if lit.items is not None else None
            made = sets.set_of(members)
            held = {sets.HOLDS_TENSOR: lit.attrs[sets.HOLDS_TENSOR]} if sets.HOLDS_TENSOR in lit.attrs else {}
            return made.with_(source=source, attrs={**made.attrs, **held})
        if lit.kind in (V.LIST, V.TUPLE, V.DICT):
            items = [self.materialize(i, summary, None, act) for i in lit.items] if lit.items is not None else None
            keys = list(lit.keys) if lit.keys is not None else None  # a new object: the summary's stays as written
            return lit.with_(source=source, items=items, keys=keys)
        if lit.kind == V.NAME and lit.ref:
            head = lit.ref.split(".")[0]
            if head in summary.globals or head in summary.classes or head in summary.functions:
                value = self.global_value(summary, head, act)
                for attr in lit.ref.split(".")[1:]:
                    value = self.getattr(value, attr, None, None)
                return _resource(value, source)
            if "." not in lit.ref and lit.ref not in BUILTIN_NAMES and self.project.split(lit.ref) is None:
                return V.unknown()  # a local of the function it was read in (`T5Stack(encoder_config)`)
            return _resource(self.dotted_value(lit.ref, None), source)
        if lit.kind == V.CALL and lit.ref:
            ref = self.project.qualify(summary, lit.ref)
            if ref == PARTIAL and lit.items:  # `norm_layer = partial(nn.LayerNorm, eps=1e-6)` at module level
                bound = [self.materialize(a, summary, None, act) for a in lit.items]
                return partial_of(bound[0], bound[1:], {k: self.materialize(a, summary, None, act)
                                                       for k, a in lit.attrs.items()}).with_(source=source)
            made = self._closure_made(ref, lit, summary, act) if lit.items is not None else None
            if made is not None:
                return made
            if ref in DICT_MAKERS and lit.items is not None:  # `NAMES = OrderedDict([("albert", "AlbertConfig"), ...])`
                made = dict_of([self.materialize(a, summary, None, act) for a in lit.items],
                               {k: self.materialize(a, summary, None, act) for k, a in lit.attrs.items()})
                return made.with_(source=source) if made.kind == V.DICT else self.objects.construct(ref, source)
            if lit.items is None or not (self.project.klass(ref) or is_torch_nn_class(ref)):
                function = self.project.function(ref)
                if function is not None and function[1].returns is not None:
                    # `_is_torch_npu_available = is_torch_npu_available()`, declared `-> bool`: run as the import
                    # ran it, else a value of that type
                    ran = self._ran_at_import(ref, lit, summary, act)
                    return ran.with_(source=source) if ran is not None else \
                        Value(V.CONST, source=source, pytype=function[1].returns, confidence="medium")
                return self.objects.construct(ref, source)
            args = [self.materialize(a, summary, None, act) for a in lit.items]
            kwargs = {k: self.materialize(a, summary, None, act) for k, a in lit.attrs.items()}
            return self.objects.instantiate(ref, args, kwargs, source)
        return lit.with_(source=source) if lit.kind != V.UNKNOWN else V.unknown()

    def getattr(self, base: Value, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        """LOAD_ATTR."""
        if act is not None and node is not None:
            self.first_read(base, act, node)
        return base.var_getattr(self, name, act, node)

    def lib_name(self, value: Value) -> str | None:
        if value.kind in (V.LIB, V.BUILTIN) or (value.kind == V.UNKNOWN and value.ref and not value.ref.startswith("loop:")):
            return value.ref
        return None

    # calls -------------------------------------------------------------------------
    def call(self, func: Value, args: list[Value], kwargs: dict[str, Value], act: Act, node: cst.Call) -> Value:
        """CALL: the callee's VariableTracker decides (inline, graph node, break, construction)."""
        return func.call_function(self, args, kwargs, act, node)

    def compiles(self, target: Value, kwargs: dict[str, Value], act: Act, node: cst.CSTNode) -> None:
        """Eager code compiles `target` (`torch.compile(model)`, `torch.compile(mod.f)`, `model.compile()`):
        the code object Dynamo will trace is an entry, and its later calls are recorded."""
        key = self.compiled_key(target)
        if key is None:
            return
        if target.kind == V.NN_MODULE:
            self.compiled_modules.setdefault(key, []).append(target)
        else:
            self.compiled_functions.add(key)
        self.compiled.add(key)
        options = {k: v.value for k, v in kwargs.items() if v.kind == V.CONST and v.known}
        self.discovered.setdefault(key, (options, act.display, act.parsed.line(node)))

    def compiled_key(self, target: Value) -> tuple[str, str] | None:
        """(display, qualname) of the function Dynamo traces when `target` is compiled."""
        if target.kind == V.NN_MODULE and target.ref:
            target = target.instance_attr(self, "forward") if self.project.klass(target.ref) else V.unknown()
        if target.kind != V.FUNC or not target.ref:
            return None
        found = self.function_node(target)
        if found is None:
            return None
        return found[0].summary.display, found[4]

    def control_flow(self, op: str, args: list[Value], act: Act, node: cst.Call) -> Value:
        """`torch.cond(pred, true_fn, false_fn, operands)` traces both branches (one, when `pred` is a
        Python constant), `map(body, xs, *args)` its body once per slice: each function is inlined."""
        for value in args[:1]:
            self.use(value, act, node)
        if op == "cond" and len(args) >= 3:
            operands = self.iterate(args[3], act, node) if len(args) > 3 else []
            pred = args[0]
            # a Python constant predicate specializes: Dynamo calls (inlines) the branch it picks
            branches = args[1:3] if pred.kind != V.CONST or not pred.known else [args[1] if pred.value else args[2]]
            for branch in branches:
                self.call(branch, list(operands or []), {}, act, node)
        elif op == "map" and len(args) >= 2:
            self.call(args[0], [Value(V.TENSOR), *args[2:]], {}, act, node)
        self.frame.graph_ops += 1
        return Value(V.TENSOR)

    def _frame_call(self, act: Act, node: cst.CSTNode, values: dict[str, Value]) -> Site:
        """The call of a callee Dynamo compiles as a frame of its own, with the values it passed (copies)."""
        line, column, _, _ = act.parsed.span(node)
        return Site(act.display, line, column, [], values, in_loop=act.loops > 0, grad_enabled=self.grad_enabled,
                    reached_at=self.entry_site)

    def compile_callee(self, func: Value, args: list[Value], act: Act) -> None:
        """A project function that code run eagerly at a break calls (`Fn.apply` calling `Fn.forward`):
        Dynamo's frame hook compiles it as a frame of its own, its arguments the frame's locals."""
        resolved = self.function_node(func)
        if resolved is None or not isinstance(resolved[1], cst.FunctionDef) or act.depth > 0:
            return
        parsed, fn, closure, cls, qualname = resolved
        bound = {p.name.value: value for p, value in zip(positional_params(fn), args)}
        self.callee_frames.append(CalleeFrame(parsed, qualname, fn, bound, cls, closure=closure,
                                              reached_from=self.entry))

    def call_user(self, func: Value, args: list[Value], kwargs: dict[str, Value], act: Act, node: cst.Call) -> Value:
        """Inline a function of the project: Dynamo's InliningInstructionTranslator."""
        resolved = self.function_node(func)
        if resolved is None:
            return V.unknown()
        parsed, fn, closure, cls, qualname = resolved
        if self.eager and (parsed.summary.display, qualname) in self.compiled and self._compiled_receiver(
                (parsed.summary.display, qualname), func.bound_self):
            # eager code calling the compiled function: Dynamo's frame starts here, with these values
            line, column, _, _ = act.parsed.span(node)
            passed = dict(kwargs)
            positional = positional_params(fn)
            if func.bound_self is not None and positional:  # the receiver, under its parameter's name
                passed[positional[0].name.value] = func.bound_self
            memo: dict[int, dict[str, Value]] = {}  # one object under two names stays one object
            site = Site(act.display, line, column, [V.snapshot(a, memo=memo) for a in args],
                        {k: V.snapshot(a, memo=memo) for k, a in passed.items()}, in_loop=act.loops > 0,
                        globals={k: V.snapshot(g, memo=memo) for k, g in self._module_objects().items()},
                        grad_enabled=self.grad_enabled, autocast=self.autocast,
                        cells={k: V.snapshot(closure[k], memo=memo) for k in _names_read(fn) if k in closure})
            self.recorded.append(((parsed.summary.display, qualname), site))
            return self._compiled_result(fn, func.bound_self)
        if self.eager and f"{parsed.summary.module}.{qualname}" in versions.PARSERS:
            return versions.parsed_version(args)  # `version.parse(torch_version)`: compared, not walked
        if self.eager and parsed.summary.module.startswith("torch.nn.") and \
                qualname.rpartition(".")[2] in ("reset_parameters", "_reset_parameters"):
            return V.const(None)  # weight initialization: tensors only, nothing Dynamo guards
        decorators = parsed.summary.functions.get(qualname)
        if not self.eager and decorators and _makes_context_manager(decorators.decorators):
            return Value(V.OBJECT, ref=breaks.GENERATOR_CONTEXT)  # its body runs when a `with` enters it
        if not self.eager and decorators and any(breaks.is_disabled_decorator(d) for d in decorators.decorators):
            self.graph_break(act, node, breaks.decide_disabled_call(qualname, method=func.bound_self is not None),
                             qualname)
            return V.unknown()
        if not self.eager and decorators and any(breaks.is_skipping_decorator(d) for d in decorators.decorators):
            self.graph_break(act, node, breaks.decide_skipped_wrapper(qualname, method=func.bound_self is not None),
                             qualname)
            return V.unknown()
        if not self.eager and self.project.is_library(parsed.summary.display):
            # the one gate: trace_rules decides for a package's code as for any callee
            # (a class called: its `__init__` is a call of the class, not a method Dynamo inlines)
            method = func.bound_self is not None and not qualname.endswith(".__init__")
            gate = breaks.decide_library_inline(f"{parsed.summary.module}.{qualname}", parsed.summary.module,
                                                self.settings, method=method)
            if gate.action == "graph-break":
                self.graph_break(act, node, gate, qualname)
                return V.unknown()
            if gate.variable_tracker == "NumpyVariable":  # torch._numpy's counterpart runs, not numpy's code
                self.frame.graph_ops += 1
                return Value(V.TENSOR, attrs={NDARRAY: V.const(True)})
        if not self.eager and decorators and any(self._marks_constant(parsed, d) for d in decorators.decorators):
            # `assume_constant_result` (`_dynamo_marked_constant`): Dynamo calls it eagerly while tracing
            # and bakes its result; nothing inside is traced, so nothing there breaks the graph
            return Value(V.CONST, confidence="medium")
        if isinstance(fn, cst.FunctionDef):
            wrapped = self.decorator_wrapper(parsed, fn, func)
            if wrapped is not None:
                # the name is bound to the decorator's wrapper: Dynamo inlines that, and it calls `fn`
                wrapper_args = [func.bound_self, *args] if func.bound_self is not None else args
                return self.call_user(wrapped, wrapper_args, kwargs, act, node)
        # one wrapper's code around different functions (`deprecate_kwarg`'s wrapped_func of the model and
        # of each layer) is not a recursion: a closure is keyed by what it closes over
        key = (parsed.summary.display, func.ref if (func.ref or "").startswith("local:") else qualname)
        # depth of this call chain, and of every call active in the walk (objects built inside
        # calls start chains of their own): the walk's recursion stays bounded
        # (the running script's own functions recursing over its data, `decode(v)` of a nested config, go
        # as deep as the data; elsewhere a recursion the walk sees is mostly its own imprecision)
        own = self.eager and self.entry == f"{parsed.summary.display}:{MODULE_FRAME}"
        # eager library code calls itself once more on another branch (`remap_legacy_layer_types(config=...)`
        # remaps `config.layer_types` by calling itself with the list): one level of it is followed
        recursed = self.inlining.count(key) >= (EAGER_RECURSION if own else LIBRARY_RECURSION if self.eager else 1)
        if act.depth >= MAX_DEPTH or recursed or len(self.inlining) >= MAX_ACTIVE:
            self.notes.append(f"inlining of {qualname} stopped (recursion or depth {MAX_DEPTH})")
            return V.unknown()
        shown = qualname.removesuffix(SETTER)  # a property's setter: its code object is named as the getter
        callee = f"{parsed.summary.display}:{shown}" if not shown.startswith("<") else shown
        code_name = "<lambda>" if isinstance(fn, cst.Lambda) else shown
        if not parsed.summary.module.startswith("torch.") and FRAME_DEFAULTS not in func.attrs \
                and act.parsed.summary.module not in STDLIB_INLINED:
            # (torch.nn's own forwards are not the user's news; the root frame's own decorator chain is no call;
            # a call the standard library's mixin makes, `Mapping.get`'s `self[key]`, is no place a report shows)
            self.emit(Action.INLINE, act, node, callee=self.callee_name(parsed, code_name), variable_tracker=V.FUNC,
                      detail={"qualname": qualname})
        if func.source is not None and not self.eager:
            # one function object, however it is reached (the forward of every MultiheadAttention
            # layer): Dynamo reuses the VariableTracker it built first, so its defaults keep that Source
            first = self.function_sources.setdefault(key, func.source)
            func = func.with_(source=first) if first != func.source else func
        attempt, ops, guarded = len(self.events), self.frame.graph_ops, set(self.frame.guarded)
        passed = [*args, *kwargs.values()]  # the call's own arguments (binding consumes `kwargs`)
        env = self.bind(fn, func, args, kwargs, parsed, act, node)
        self.entered.add((parsed.summary.display, qualname))
        if self.building is not None and qualname.endswith(".__init__") and isinstance(fn, cst.FunctionDef):
            self.building_init(parsed, qualname, fn, func, env, cls)
        # eager code emits nothing, and the acts an eager call opens end while the code is eager still: their
        # chain is never read, so no place is looked up (the positions of a module only constructors enter)
        where = self.loc(act, node) if not self.eager else Location(act.display, 0)
        link = Related(where, f"{'in a loop: ' if act.loops else ''}calls {callee.rpartition(':')[2]}")
        inner = Act(parsed, qualname, env, (*act.chain, link), act.depth + 1, 0, cls, closure,
                    uncertain_base=self.uncertain, yields=[] if self.eager and self.is_generator(fn) else None)
        self.inlining.append(key)
        if act.depth == 0:
            self.root_call = node  # a break inside the callee is the root frame's at this call
        bound = dict(env)
        # the values the callee gets, before its body changes them (`cache.layers[0].is_initialized`): its
        # call's, should it break and be compiled as a frame of its own, called again with each call of this one
        before = V.snapshots(bound) if self.broken_call_sites and act.depth == 0 and not self.eager \
            and isinstance(fn, cst.FunctionDef) else None
        uncompiled = False  # an eager call Dynamo does not compile: the calls it makes run eagerly too
        if self.replaying and len(self.inlining) == 1 + self.uncompiled_calls and isinstance(fn, cst.FunctionDef) \
                and not self._replaced_by_generated_init(fn, func) \
                and (self.library_entry or not self.project.is_library(parsed.summary.display)):
            # (a package's frames are not the user's news, unless the compiled entry is a package's too)
            if self._compiled_when_run_eagerly(parsed, fn, bound):
                call = self._frame_call(act, node, V.snapshots(bound))
                self.direct_calls.append(CalleeFrame(parsed, qualname, fn, bound, cls, call, closure=closure,
                                                     linked=self.wrapped_function(fn, qualname, closure),
                                                     reached_from=self.entry))
            else:
                uncompiled = True
                self.uncompiled_calls += 1
        grad_enabled = self.grad_enabled
        if self.eager and decorators:  # `@torch.no_grad()` on an eager function: its body runs without grad
            for decorator in decorators.decorators:
                self.grad_enabled = grad_mode_in(decorator, [], self.grad_enabled)
        try:
            if isinstance(fn, cst.Lambda):
                return self.expr(fn.body, inner)
            self.block(fn.body, inner)
            return self._result(inner, V.const(None)) if inner.yields is None else _generated(inner)
        except _Return as ret:
            if inner.yields is not None:
                return _generated(inner)
            return _declared(self._result(inner, ret.value), decorators)
        except _InlinedBreak:
            # the caller breaks at this call; the callee, called eagerly, is compiled as its own frame, whose
            # own trace breaks at the next call down, and so on (a package's frame only when the compiled
            # frame is a package's too: else not the user's news, and the project's frames below it are)
            if isinstance(fn, cst.FunctionDef) and (self.library_entry or
                                                    not self.project.is_library(parsed.summary.display)):
                call = None if before is None else self._frame_call(act, node, before)
                self.broken_chain = [CalleeFrame(parsed, qualname, fn, bound, cls, call, closure=closure,
                                                 linked=self.wrapped_function(fn, qualname, closure),
                                                 reached_from=self.entry)]
            if act.depth > 0:
                raise
            self.callee_frames += self.broken_chain
            self.broken_chain = []
            # Dynamo restarts the frame's analysis and traces the call as a break, not inlined: the
            # guards the failed attempt installed are gone with it. The call runs eagerly and the
            # rest of the statement (`self.block(x) + self.bias`) is the resume function's
            self._forget_guards(attempt)
            self.frame.graph_ops, self.frame.guarded = ops, guarded
            for value in passed:
                # the arguments are rebuilt for the eager call: a frame input among them is guarded by
                # value here (`self.model(cache=cache)`: `L['cache']` NONE_MATCH at the call), another
                # value by its type only (for a None, that is its value)
                if value.kind == V.CONST and value.known and (value.value is None or
                                                              type(value.source) is LocalSource):
                    self.use(value, act, node)
            self._resume(act, node)
            return V.unknown("medium")
        finally:
            self.inlining.pop()
            self.grad_enabled = grad_enabled
            self.uncompiled_calls -= uncompiled

    def _result(self, inner: Act, last: Value) -> Value:
        """What a traced call returns: the join of every path's value when the walk could not choose
        (`return None` under an undecided `if`, a mask below). Eager code (a constructor, a script)
        keeps the value of the path that reaches the end: the walk's best guess, so the objects it
        builds stay whole."""
        return last if self.eager else _joined([*inner.returned, last])

    def is_generator(self, fn: cst.FunctionDef | cst.Lambda) -> bool:
        """Whether `fn` yields: found once per function in an analysis (LibCST's visit of a body costs as
        much as its parse, and every entry's walk asks again of the functions it enters)."""
        memo, key = self.project.memo_of(fn), ("yields", fn)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _yields(fn)
        return found

    def _compiled_receiver(self, key: tuple[str, str], receiver: Value | None) -> bool:
        """Whether this call goes through a compiled object: any call of a compiled function, and the
        forward of a module compiled whole only when called on that module."""
        modules = self.compiled_modules.get(key)
        return key in self.compiled_functions or modules is None or any(receiver is m for m in modules)

    def _compiled_result(self, fn: cst.FunctionDef | cst.Lambda, receiver: Value | None) -> Value:
        """What a compiled call hands back to eager code, where the function's annotation says it is a
        tensor: one that requires grad when grad mode is on and the module has trainable parameters
        (`fake = G(noise)` then `D(fake)`), and does not under torch.no_grad()."""
        returns = fn.returns if isinstance(fn, cst.FunctionDef) else None
        if returns is None or dotted(returns.annotation) not in ("torch.Tensor", "Tensor"):
            return V.unknown("medium")
        if self.grad_enabled is False:
            return Value(V.TENSOR, attrs={"requires_grad": V.const(False)})
        trainable = receiver is not None and receiver.kind == V.NN_MODULE and any(
            (flag := parameter.attrs.get("requires_grad")) is None or (flag.known and flag.value)
            for _, _, parameter in parameters_of(receiver))
        return Value(V.TENSOR, attrs={"requires_grad": V.const(True)} if self.grad_enabled and trainable else {})

    def _marks_constant(self, parsed: Parsed, decorator: str) -> bool:
        """`@torch._dynamo.assume_constant_result`, or a decorator that sets the attribute it sets
        (transformers' `_make_compile_constant`)."""
        name = decorator.split("(")[0]
        if name in ASSUME_CONSTANT:
            return True
        found = self.project.function(self.project.qualify(parsed.summary, name))
        if found is None:
            return False
        where = self.project.parsed(found[0].display)
        node = where.functions.get(found[1].qualname) if where is not None else None
        return isinstance(node, cst.FunctionDef) and "_dynamo_marked_constant" in where.module.code_for_node(node)

    def callee_name(self, parsed: Parsed, code_name: str) -> str:
        if self.project.is_library(parsed.summary.display):
            return f"{parsed.summary.module}.{code_name}"
        return f"{parsed.summary.display}:{code_name}"

    def decorator_wrapper(self, parsed: Parsed, fn: cst.FunctionDef, func: Value) -> Value | None:
        """`@deco` / `@deco(...)` of the project or a package: the wrapper the decorator returns,
        with the decorated function (one decorator fewer) in the decorator's closure."""
        applied = int(func.attrs.get("decorators_applied", 0) or 0)
        for index, dec in enumerate(fn.decorators):
            if index < applied:
                continue
            factory = isinstance(dec.decorator, cst.Call)
            name = dotted(dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator)
            if name is None:
                return None
            head, _, rest = name.partition(".")
            value = self.global_value(parsed.summary, head)
            for attr in rest.split(".") if rest else ():
                value = self.getattr(value, attr, None, None)
            if value.kind != V.FUNC or not value.ref or value.ref.startswith("local:"):
                continue  # property, staticmethod, torch's own decorators...: the function itself is called
            found = self.function_node(value)
            if found is None or not isinstance(found[1], cst.FunctionDef):
                continue
            dparsed, level, _, _, qual = found
            cells: dict[str, Value] = {}
            if factory:
                inner = _returned_def(level)
                if inner is None:
                    return None
                assert isinstance(dec.decorator, cst.Call)
                cells = _factory_arguments(level, dec.decorator, dparsed, parsed)
                qual, level = f"{qual}.<locals>.{inner.name.value}", inner
            wrapper = _returned_def(level)
            if not factory and wrapper is not None and _is_decorator(wrapper):
                # `def deco(func=None, *, flag=True): ...; return wrapped_fn(func) if func else wrapped_fn`,
                # applied bare (`@deco`): the function goes to `wrapped_fn`, whose own wrapper is called
                qual, level, wrapper = f"{qual}.<locals>.{wrapper.name.value}", wrapper, _returned_def(wrapper)
            params = positional_params(level)
            if wrapper is None or not params:
                return None
            qual = f"{qual}.<locals>.{wrapper.name.value}"
            # reached through the wrapper's closure cell: no Source of ours (its defaults are not guarded as ours)
            original = func.with_(bound_self=None, source=None, attrs={**func.attrs, "decorators_applied": index + 1})
            if not factory and _returns_param(level, params[0].name.value) and \
                    self._returns_unwrapped(dparsed, value, original, dec.decorator, (id(fn), index)):
                return self.decorator_wrapper(parsed, fn, original)  # `if not is_accelerate_available(): return method`
            key = f"local:{id(wrapper)}:{id(fn)}:{index}"
            self.local_funcs[key] = (dparsed, wrapper, {**cells, params[0].name.value: original}, None)
            self.local_names[key] = qual
            # a wrapper of the root frame's chain is part of that frame's code, not a call it inlines
            return Value(V.FUNC, ref=key, attrs={FRAME_DEFAULTS: func.attrs[FRAME_DEFAULTS]}
                         if FRAME_DEFAULTS in func.attrs else {})
        return None

    def _returns_unwrapped(self, parsed: Parsed, decorator: Value, original: Value, node: cst.BaseExpression,
                           key: tuple[int, int]) -> bool:
        """Whether a decorator that may hand the function back unchanged does so, run as the import runs
        it (`apply_forward_hook` returns `method` itself where accelerate is not installed); once per
        decorated function."""
        if key not in self.unwrapped:
            made = self._at_import(
                parsed, lambda act: self.call(decorator, [original], {}, act, node))  # type: ignore[arg-type]
            self.unwrapped[key] = made is not None and made.kind == V.FUNC and made.ref == original.ref
        return self.unwrapped[key]

    def wrapped_function(self, fn: cst.FunctionDef, qualname: str,
                         closure: dict[str, Value]) -> tuple[Parsed, cst.FunctionDef, str] | None:
        """The function at the end of a decorator wrapper's closure chain (`MixtralModel.forward` for
        `capture_outputs`'s wrapper around `merge_with_config_defaults`'s around it), or None for a
        function that wraps nothing."""
        found: tuple[Parsed, cst.FunctionDef, str] | None = None
        for _ in range(MAX_DEPTH):
            if not passes_on(fn, qualname):
                return found
            # the function of its closure it calls by name (`forward(self, *args, **kwargs)`), as the runtime
            # links a wrapper's frame; one it looks up and calls under another name is a frame of its own
            called = _names_called(fn)
            inner = [value for name, value in closure.items() if value.kind == V.FUNC and name in called]
            node = self.function_node(inner[0]) if len(inner) == 1 else None
            if node is None or not isinstance(node[1], cst.FunctionDef):
                return None
            parsed, fn, closure, _, qualname = node
            found = (parsed, fn, qualname)
        return None

    def function_node(self, func: Value) -> tuple[Parsed, cst.FunctionDef | cst.Lambda, dict[str, Value], str | None, str] | None:
        ref = func.ref or ""
        if ref.startswith("local:"):
            parsed, node, closure, cls = self.local_funcs[ref]
            name = self.local_names.get(ref) or (node.name.value if isinstance(node, cst.FunctionDef) else "<lambda>")
            return parsed, node, closure, cls, name  # type: ignore[return-value]
        found = self.project.split(ref)
        if found is None:
            return None
        summary, qualname = found
        parsed = self.project.parsed(summary.display)
        if parsed is None or qualname not in parsed.functions:
            return None
        cls = ref.removesuffix(SETTER).rpartition(".")[0] if "." in qualname else None
        return parsed, parsed.functions[qualname], {}, cls, qualname

    def bind(self, fn: cst.FunctionDef | cst.Lambda, func: Value, args: list[Value], kwargs: dict[str, Value],
             parsed: Parsed, act: Act, node: cst.CSTNode) -> dict[str, Value]:
        """The callee's locals. A default the call leaves in place is read from the function object
        (`G['helper'].__defaults__[0]`, `L['self'].up.forward.__kwdefaults__['scale']`), and guarded
        there when used; the defaults tuple's length is guarded at the call."""
        params = fn.params
        positional = positional_params(fn)
        env: dict[str, Value] = {}
        queue = list(args)
        if func.bound_self is not None and positional:
            env[positional[0].name.value] = func.bound_self
            positional = positional[1:]
        defaults = [p for p in positional if p.default is not None]
        holder = func.source  # the function object the defaults are read from
        used_default = False
        for param in positional:
            name = param.name.value
            if queue:
                env[name] = queue.pop(0)
            elif name in kwargs:
                env[name] = kwargs.pop(name)
            elif param.default is not None and FRAME_DEFAULTS in func.attrs:
                env[name] = self._default(param.default, parsed, LocalSource(name))
            elif param.default is not None:
                source = item_source(attr_source(holder, "__defaults__"), defaults.index(param))
                env[name] = self._default(param.default, parsed, source)
                used_default = True
            else:
                env[name] = V.unknown()
        if isinstance(params.star_arg, cst.Param):
            env[params.star_arg.name.value] = Value(V.TUPLE, items=queue)
        for param in params.kwonly_params:
            name = param.name.value
            source = item_source(attr_source(holder, "__kwdefaults__"), name)
            env[name] = kwargs.pop(name) if name in kwargs else (
                self._default(param.default, parsed, source) if param.default is not None else V.unknown())
        if params.star_kwarg is not None:
            env[params.star_kwarg.name.value] = Value(V.DICT, keys=list(kwargs), items=list(kwargs.values()))
        if used_default and holder is not None:
            tuple_source = AttrSource(holder, "__defaults__")
            self.length_check(Value(V.TUPLE, source=tuple_source, items=[V.unknown() for _ in defaults]), act, node)
        if self.eager and isinstance(fn, cst.FunctionDef):
            self._typed_by_annotation(fn, env, parsed)
        return env

    def _typed_by_annotation(self, fn: cst.FunctionDef, env: dict[str, Value], parsed: Parsed) -> None:
        """An object built with an argument nobody shows (`GPT2Model(config)` with the config from a
        file): annotated with a class of the project (`config: GPT2Config`), it is an instance of that
        class whose attribute values are unknown (opaque) but for the fields its class declares (see
        `ObjectModel.unseen_instance`), while its methods and its `__getattribute__` are known. One
        annotated `int`, `float`, `bool` or `str` is a Python scalar of unknown value (`num_tokens: int`
        given `x.shape[0]`), not possibly a tensor."""
        for param in named_params(fn):
            value = env.get(param.name.value)
            if value is None or value.kind != V.UNKNOWN or value.ref or param.annotation is None:
                continue
            scalar = scalar_annotation(param.annotation.annotation)
            if scalar is not None:
                env[param.name.value] = Value(V.CONST, pytype=scalar, confidence="medium")
                continue
            name = dotted(param.annotation.annotation)
            found = self.project.klass(self.project.qualify(parsed.summary, resolve(name, parsed.summary.imports))) \
                if name else None
            if found is None:
                continue
            same_package = found[0].module.split(".")[0] == parsed.summary.module.split(".")[0]
            if self.project.is_library(found[0].display) and not same_package:
                continue
            summary, cls = found
            kind = V.NN_MODULE if self.project.is_nn_module(summary, cls) else V.OBJECT
            ref = f"{summary.module}.{cls.qualname}" if summary.module else cls.qualname
            unseen = self.objects.unseen_instance(ref) if kind == V.OBJECT else V.unknown()
            env[param.name.value] = unseen if unseen.kind == V.OBJECT else \
                Value(kind, ref=ref, opaque=True, confidence="medium")

    def default_value(self, node: cst.BaseExpression, parsed: Parsed) -> Value:
        """A parameter's default as the def computed it (`inspect.signature` run eagerly reads it)."""
        return self._default(node, parsed, None)

    def _default(self, node: cst.BaseExpression, parsed: Parsed, source: Source | None) -> Value:
        """A default is an attribute of the function object: its Source is there, when the function has one."""
        return self.materialize(literal(node, parsed.summary.imports), parsed.summary, source, None)


_MUTABLE = (V.OBJECT, V.NN_MODULE, V.LIST, V.DICT)
# the kinds of a script's computed globals a compiled call reads as the script left them
_SCRIPT_DATA = frozenset({V.CONST, V.LIST, V.TUPLE, V.DICT, V.SET, V.NAMESPACE})


def _generated(act: Act) -> Value:
    """The values a generator function yields, as the loop over it sees them: in order when every
    yield ran on a path the walk knows; else one sample element of a sequence of unknown length."""
    assert act.yields is not None
    made = {V.GENERATOR: V.const(True)}
    if act.yields_known:
        return Value(V.LIST, items=list(act.yields), attrs=made)
    return Value(V.LIST, items=None, attrs={**made, "element": act.yields[0]} if act.yields else made)


def _yields(fn: cst.FunctionDef | cst.Lambda) -> bool:
    """Whether the body yields (a nested function's or a generator expression's yields aside)."""
    if isinstance(fn, cst.Lambda):
        return False
    finder = _YieldFinder()
    visit(fn.body, finder)  # read-only: LibCST's own `visit` rebuilds every node it passes
    return finder.found


class _YieldFinder:
    def __init__(self) -> None:
        self.found = False

    def visit_Yield(self, node: cst.Yield) -> bool:
        self.found = True
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


def _joined(results: list[Value]) -> Value:
    """The value of a call whose paths the walk could not choose between (`return None` under an
    undecided `if`, a tensor below): one of them, so only what they share is known."""
    first = results[-1]
    if all(r is first for r in results):
        return first
    if all(r.kind == V.CONST and r.known for r in results) and len({repr(r.value) for r in results}) == 1:
        return first.with_(confidence="medium")
    kinds = {r.kind for r in results}
    if kinds == {V.TENSOR}:
        return Value(V.TENSOR, confidence="medium")
    if kinds == {V.CONST}:
        types = {r.pytype for r in results}
        return Value(V.CONST, pytype=types.pop() if len(types) == 1 else None, confidence="medium")
    if kinds <= {V.CONST, V.TENSOR, V.UNKNOWN}:
        return V.unknown("medium")  # `None` or a mask: `attention_mask is None` is not known
    return first  # a function, an object: the path that falls through to the end (the walk's guess)


def _declared(result: Value, function: FunctionSummary | None) -> Value:
    """A result the walk could not work out, of a function whose annotation declares a scalar
    (`def is_torch_npu_available() -> bool`): a Python value of that type."""
    if result.kind != V.UNKNOWN or function is None or function.returns is None:
        return result
    return Value(V.CONST, pytype=function.returns, confidence="medium")
ASSUME_CONSTANT = frozenset({"torch._dynamo.assume_constant_result", "torch._dynamo.decorators.assume_constant_result"})
_READS = (cst.Name, cst.Attribute, cst.Subscript)  # expressions that read a value from outside


class _Unrolled(Exception):
    """A comprehension over a sequence of unknown length."""


class _NamesRead:
    def __init__(self) -> None:
        self.found: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.found.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        visit(node.value, self)  # `obj.attr`: the attribute's name is no variable
        return False


class _NamesCalled:
    def __init__(self) -> None:
        self.found: set[str] = set()

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name):
            self.found.add(node.func.value)


def _names_called(fn: cst.FunctionDef) -> set[str]:
    """The names a function's code calls (`func(*args, **kwargs)`)."""
    names = _NamesCalled()
    visit(fn.body, names)
    return names.found


def _names_read(fn: cst.CSTNode) -> set[str]:
    """The names a function's code mentions: of those its closure holds, its free variables."""
    names = _NamesRead()
    visit(fn.body, names)  # type: ignore[attr-defined]  # FunctionDef and Lambda
    return names.found


def _identity(left: Value, right: Value) -> bool | None:
    if left.kind == right.kind == V.ENUM and left.known and right.known:
        return left.value == right.value  # enum members are singletons
    if left.kind == right.kind and left.kind in (V.NN_MODULE, V.OBJECT) and left.attrs and right.attrs:
        if left.attrs is right.attrs:
            return True  # one object reached two ways (`fn is self.attn` with `fn = self.attn`)
        if left.ref and right.ref and left.ref != right.ref:
            return False  # objects of two classes
    if left.kind == right.kind and left.kind in (V.CLASS, V.FUNC) and left.ref and right.ref \
            and not left.ref.startswith("local:") and not right.ref.startswith("local:"):
        return left.ref == right.ref  # one class or function per qualified name (`layer_cls is SAGELayer`)
    if left.kind == right.kind == V.CONST and left.known and right.known:
        return left.value is right.value or (left.value is None and right.value is None)
    if left.kind == right.kind == V.LIB and left.ref and right.ref and left.bound_self is right.bound_self is None:
        # `activation is F.relu`: one function per name; two names of one module are two functions
        # (dtypes aside: `torch.half is torch.float16`)
        (owner, _, name), (other_owner, _, other) = left.ref.rpartition("."), right.ref.rpartition(".")
        if left.ref == right.ref:
            return True
        if owner == other_owner == "torch" and name in DTYPE_NAMES and other in DTYPE_NAMES:
            return DTYPE_NAMES[name] == DTYPE_NAMES[other]
        return False if owner == other_owner and not {name, other} & DTYPE_NAMES.keys() else None
    if V.CONST in (left.kind, right.kind):
        other, const = (right, left) if left.kind == V.CONST else (left, right)
        if const.known and const.value is None and other.kind in (V.TENSOR, V.OBJECT, V.NN_MODULE, V.LIST, V.TUPLE,
                                                                  V.DICT, V.SET, V.CLASS, V.FUNC, V.RANGE):
            return False
    return None


def _absorbing(op: Any, left: Value, right: Value) -> bool | None:
    """`True | flag` and `False & flag` (the `_is_tracing |= is_fx_proxy(x)` idiom): known whatever the
    other flag is."""
    if op not in (operator.or_, operator.and_) or V.TENSOR in (left.kind, right.kind):
        return None
    absorbing = op is operator.or_
    return absorbing if any(v.kind == V.CONST and v.known and v.value is absorbing for v in (left, right)) else None


def _constant_slice(bounds: list[Value | None]) -> slice | None:
    """`[lower:upper:step]` when every bound given is a known int."""
    if not all(b is None or (b.kind == V.CONST and b.known and isinstance(b.value, int)) for b in bounds):
        return None
    return slice(*(b.value if b is not None else None for b in bounds))


def _sequence_slice(sequence: Value, bounds: list[Value | None]) -> Value:
    """`feats[:-1]`, `xs[1:]`: a new list or tuple of the same items, each keeping its Source."""
    part = _constant_slice(bounds)
    if sequence.items is None or part is None:
        return Value(sequence.kind)
    indices = range(len(sequence.items))[part]
    return Value(sequence.kind, items=[sequence.element(i, sequence.items[i]) for i in indices])  # type: ignore[attr-defined]


def _module_slice(container: Value, bounds: list[Value | None]) -> Value:
    """`self.layers[: cfg.n_layer]`: a ModuleList of those children, each keeping its `_modules` Source."""
    found = children(container) if container_kind(container.ref) else None
    if found is None:
        return V.unknown()
    if container.items is None:  # length unknown: so is the slice's; its first child is the list's
        return Value(V.NN_MODULE, ref=container.ref, sample=found[0], attrs=dict(container.attrs))
    part = _constant_slice(bounds)
    if part is None:
        return Value(V.NN_MODULE, ref=container.ref, sample=found[0] if found else None, attrs=dict(container.attrs))
    return Value(V.NN_MODULE, ref=container.ref, items=found[part], attrs=dict(container.attrs))


def _membership(key: Value, container: Value, eager: bool = False) -> bool | None:
    """`key in container` where both are known: a dict's keys (Dynamo specializes on them), a
    literal list or tuple of constants written in the code (in eager code, any list the walk knows:
    Python's own value), or a string; or where the key is one of a few known values (a device type)
    and the list holds them all."""
    listed = _listed(container, eager)
    if (container.kind == V.DICT and container.keys == []) or listed == [] == container.items:
        return False  # nothing is in an empty dict or list, whatever the key is
    if key.kind == V.CONST and ONE_OF in key.attrs:
        # `x.device.type in ["cpu", "cuda", ...]`: found when every device type it can be is listed
        return True if listed is not None and set(key.attrs[ONE_OF].value) <= set(listed) else None
    if key.kind == V.ENUM and key.known and container.kind in (V.LIST, V.TUPLE) and container.items is not None \
            and all(i.kind == V.ENUM and i.known for i in container.items):
        return key.value in [i.value for i in container.items]  # `action in (Action.NOTIFY, ...)`: members
    if key.kind != V.CONST or not key.known:
        return None
    if container.kind in (V.DICT, V.NN_MODULE) and container.keys is not None:
        return key.value in container.keys  # a dict's keys, a ModuleDict's (the module tree is static)
    if listed is not None:
        if key.value in listed:
            return True  # found, whatever the unknown elements are
        return False if len(listed) == len(container.items or ()) else None
    if container.kind == V.CONST and container.known and isinstance(container.value, str) \
            and isinstance(key.value, str):
        return key.value in container.value  # a substring: `"flash" in attn_implementation`
    return None


def _listed(container: Value, eager: bool = False) -> list[Any] | None:
    """The known constants of a list or tuple written in the frame (not read from outside, unless
    `eager`: Python running outside a trace reads the list as it is)."""
    if container.kind not in (V.LIST, V.TUPLE, V.SET) or (container.source is not None and not eager) \
            or container.items is None:
        return None
    return [i.value for i in container.items if i.kind == V.CONST and i.known]


def _result_type(left: str | None, right: str | None) -> str | None:
    if "float" in (left, right):
        return "float"
    if left == right:
        return left
    return None


def _returns_own_def(fn: cst.FunctionDef) -> bool:
    """A closure factory: its body ends with `return name`, `name` a function it defines."""
    body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else ()
    defined = {s.name.value for s in body if isinstance(s, cst.FunctionDef)}
    last = body[-1] if body else None
    if not isinstance(last, cst.SimpleStatementLine) or not isinstance(last.body[0], cst.Return):
        return False
    value = last.body[0].value
    return isinstance(value, cst.Name) and value.value in defined


def _cells(act: Act) -> dict[str, Value]:
    """What a function defined in `act` closes over: the frame's locals, and the cells the frame itself
    closes over (a def nested two deep reads both), live as Python's cells are."""
    return act.env if not act.closure else ChainMap(act.env, act.closure)  # type: ignore[return-value]


def _row(value: Value) -> Value:
    """One row of a tensor: its sizes after the first."""
    return tensor(list(value.items[1:]) if value.items else None, value.pytype)


def _rows(value: Value, tx: Walker) -> list[Value] | None:
    """`for row in x` in traced code: Dynamo unrolls the rows of the static first size (the TENSOR_MATCH
    guards it); None when the size is dynamic or not known."""
    sizes = known_sizes(value, tx)
    if not sizes or not sizes[0].known or not isinstance(sizes[0].value, int) or not 0 < sizes[0].value <= MAX_UNROLL:
        return None
    return [_row(value) for _ in range(sizes[0].value)]


def _resourced(value: Value, source: Source | None) -> Value:
    """An item a resume function reads from the iterator it is handed, and the items of a pair
    (`enumerate`'s `(i, layer)`): `L['___stack0'][0][1]`."""
    if value.kind == V.TUPLE and value.items is not None:
        return value.with_(source=source, items=[_resourced(item, item_source(source, number))
                                                 for number, item in enumerate(value.items)])
    return value.with_(source=source)


def _first_reach(tx: Walker, value: Value, source: Source) -> Value:
    """A module-level object, however it is named (`from .modeling_utils import ALL_ATTENTION_FUNCTIONS`):
    Dynamo reuses the VariableTracker of the frame's first access, and guards through its Source. A
    script's data computed at its top level is read from its global."""
    if value.kind != V.OBJECT:
        return value if value.source is not None else value.with_(source=source)
    return value.with_(source=tx.object_sources.setdefault(id(value.attrs), source))


def _resource(value: Value, source: Source | None) -> Value:
    return value.with_(source=source) if source else value


_CONTEXT_MANAGER_DECORATORS = frozenset({"contextlib.contextmanager", "contextmanager"})


def _makes_context_manager(decorators: list[str]) -> bool:
    """A function decorated with contextlib.contextmanager: a call makes a _GeneratorContextManager."""
    return any(d.split("(")[0] in _CONTEXT_MANAGER_DECORATORS for d in decorators)


_NN_MODULE_NAMES = frozenset({"nn.Module", "torch.nn.Module", "Module"})


def _has_formatted_part(node: cst.ConcatenatedString) -> bool:
    """`"rank " f"{n}"`: a part is an f-string, so the message is built by BUILD_STRING, not one LOAD_CONST."""
    return any(isinstance(part, cst.FormattedString)
               or (isinstance(part, cst.ConcatenatedString) and _has_formatted_part(part))
               for part in (node.left, node.right))


def _is_str(value: Value) -> bool | None:
    """Whether a value is a Python string constant as Dynamo holds it; None where the walk does not know."""
    if value.kind in (V.TENSOR, V.TUPLE, V.LIST, V.DICT):
        return False
    if value.kind != V.CONST:
        return None
    if value.known:
        return isinstance(value.value, str)
    return None if value.pytype is None else value.pytype == "str"


def _target_names(node: cst.BaseExpression) -> list[str]:
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, (cst.Tuple, cst.List)):
        return [n for e in node.elements for n in _target_names(e.value)]
    return []


def _formatted(value: Value, part: cst.FormattedStringExpression) -> str | None:
    """`{value!r:>8}` of a known constant, as Python formats it; None when the walk cannot."""
    if value.kind != V.CONST or not value.known or not isinstance(value.value, (str, int, float, bool, type(None))):
        return None
    spec = part.format_spec
    if spec and not all(isinstance(p, cst.FormattedStringText) for p in spec):
        return None
    shown = {"r": repr, "s": str, "a": ascii}.get(part.conversion or "", lambda v: v)(value.value)
    try:
        return checked(format, shown, "".join(p.value for p in spec or ()  # type: ignore[union-attr]
                                              if isinstance(p, cst.FormattedStringText)))
    except (ValueError, TypeError, TooLarge):  # `{n:>1000000000}`: too wide to make
        return None


def _weakest(result: Value, *operands: Value) -> Value:
    """A constant computed from a guess is a guess."""
    return result.with_(confidence="low") if any(o.confidence == "low" for o in operands) else result


def _forget_branch_constants(env: dict[str, Value], before: dict[str, Value]) -> None:
    """After two paths the walk could not choose between, a constant either one assigned
    may hold either value: its type stays, its value is no longer known."""
    for name, value in env.items():
        if before.get(name) is not value and value.kind in (V.CONST, V.ENUM):
            env[name] = Value(V.CONST, pytype=value.pytype, confidence="medium") if value.kind == V.CONST \
                else Value(V.UNKNOWN, confidence="medium")


def _list_lengths(env: dict[str, Value]) -> dict[str, int]:
    return {name: len(value.items) for name, value in env.items() if value.kind == V.LIST and value.items is not None}


def _forget_branch_appends(env: dict[str, Value], lengths: dict[str, int]) -> None:
    """A list that grew on a path the walk could not choose, or in a loop it could not count
    (`layer_types.append(...)` in each arm of an `if` in a loop over the layers): its length and
    elements are no longer known."""
    for name, length in lengths.items():
        value = env.get(name)
        if value is not None and value.kind == V.LIST and value.items is not None and len(value.items) != length:
            value.items = None  # in place: every name bound to the list sees it


# The built-in exceptions a handler of a base also catches (`except LookupError:` takes a KeyError).
_BASES = {"KeyError": ("LookupError", "Exception", "BaseException", ""),
          "IndexError": ("LookupError", "Exception", "BaseException", ""),
          "AttributeError": ("Exception", "BaseException", "")}


def _caught_names(handlers: Any) -> frozenset[str]:
    """The exception names a `try`'s handlers catch; "" for a bare `except:`."""
    names: set[str] = set()
    for handler in handlers:
        caught = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
        names |= {dotted(c.value if isinstance(c, cst.Element) else c) or "?" if c is not None else ""
                  for c in caught}
    return frozenset(names)


def _handler(handlers: Any, name: str | None) -> cst.ExceptHandler:
    """The `except` clause a raise of `name` lands in: the one naming it, else the first."""
    for handler in handlers:
        caught = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
        names = {dotted(c.value if isinstance(c, cst.Element) else c) for c in caught if c is not None}
        if name is not None and name in names:
            return handler
    return handlers[0]


def _is_decorator(fn: cst.FunctionDef) -> bool:
    """A nested `def wrapped_fn(func)` that returns a def of its own: a decorator, not the wrapper."""
    params = positional_params(fn)
    return len(params) == 1 and not isinstance(fn.params.star_arg, cst.Param) and fn.params.star_kwarg is None \
        and _returned_def(fn) is not None


def _returns_param(fn: cst.FunctionDef, param: str) -> bool:
    """Whether a decorator has a path that returns the function it was given (`return method`)."""
    found = _ReturnsName(param)
    visit(fn.body, found)
    return found.seen


class _ReturnsName:
    def __init__(self, name: str) -> None:
        self.name, self.seen = name, False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False  # a nested def's returns are its own

    def visit_Return(self, node: cst.Return) -> None:
        self.seen |= isinstance(node.value, cst.Name) and node.value.value == self.name


def _returned_def(fn: cst.FunctionDef) -> cst.FunctionDef | None:
    """The nested function `fn` returns: `def deco(f): def wrapper(...): ...; return wrapper`."""
    body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else ()
    defs = {s.name.value: s for s in body if isinstance(s, cst.FunctionDef)}
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Return) and isinstance(small.value, cst.Name) and small.value.value in defs:
                    return defs[small.value.value]
    return None


# Context managers and decorators that set grad mode, which Dynamo guards (GLOBAL_STATE).
_GRAD_MODES = {"torch.no_grad": False, "torch.inference_mode": False, "torch.enable_grad": True,
               "torch.autograd.grad_mode.no_grad": False, "torch.autograd.grad_mode.inference_mode": False,
               "torch.autograd.grad_mode.enable_grad": True}


# torch's autocast context managers, and the dtype each uses by default
_AUTOCASTS = {"torch.autocast": None, "torch.amp.autocast": None, "torch.amp.autocast_mode.autocast": None,
              "torch.cpu.amp.autocast": "bfloat16", "torch.cuda.amp.autocast": "float16"}


def autocast_in(manager: str, args: list[Value], kwargs: dict[str, Value], current: str | None) -> str | None:
    """The autocast region inside `with manager(...)`: its dtype ("" when `enabled=False`), which
    Dynamo's GLOBAL_STATE guard checks; None when the walk cannot tell."""
    if manager not in _AUTOCASTS:
        return current
    enabled = kwargs.get("enabled", args[2] if len(args) > 2 else V.const(True))
    if not (enabled.kind == V.CONST and enabled.known):
        return None
    if not enabled.value:
        return ""
    dtype = kwargs.get("dtype", args[1] if len(args) > 1 else None)
    if dtype is not None:
        return dtype.ref.rpartition(".")[2] if dtype.kind == V.LIB and dtype.ref else None
    device = kwargs.get("device_type", args[0] if args else V.const("cuda"))
    by_device = {"cpu": "bfloat16", "cuda": "float16"}
    return _AUTOCASTS[manager] or (by_device.get(device.value) if device.known else None)


def grad_mode_in(manager: str, args: list[Value], current: bool | None) -> bool | None:
    """Grad mode inside `with manager(*args):` (`torch.set_grad_enabled(flag)` reads its flag)."""
    if manager in ("torch.set_grad_enabled", "torch.autograd.grad_mode.set_grad_enabled"):
        flag = args[0] if args else None
        return bool(flag.value) if flag is not None and flag.kind == V.CONST and flag.known else None
    if manager in ("torch.inference_mode", "torch.autograd.grad_mode.inference_mode") and args:
        flag = args[0]
        return None if not (flag.kind == V.CONST and flag.known) else (current if not flag.value else False)
    return _GRAD_MODES.get(manager, current)
