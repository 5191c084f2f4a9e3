"""What Dynamo does when the traced code calls something outside the user's own code:
put it in the graph, inline it, fold it to a constant, or break the graph (and with
which registry id).

Pure functions over the trace_rules snapshot of the installed torch
(`vtlint.rules.trace_rules.snapshot`); this module never imports torch. The symbolic
walk calls one `decide_*` per call, Tensor method, branch on a tensor and
with-statement, and turns `graph-break` decisions into GRAPH_BREAK events.

The special cases below are facts measured on torch 2.13 (each is checked against a
real torch.compile run in tests/breaks); the general cases follow the snapshot.

Beyond the one-call-one-decision core, a walk can pass `tensor_args=True` when an
argument is a tensor (`str(t)`, `math.sqrt(t)`, `hash(t)` read its value), ask
`decide_raise` for a `raise`, `decide_boolean_mask` for `t[mask]`, `instance_type` for
what a library call returns (`logging.getLogger(...)` is a Logger), and read
`Decision.skips_frame` (Dynamo runs the whole frame eagerly: no graph, no resume) and
`Decision.also` (the Gb_types torch reports next at the same line)."""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from vtlint.config import DynamoSettings
from vtlint.findings import Notification
from vtlint.rules.trace_rules.snapshot import NOT_IN_TORCH_NUMPY, Snapshot, current

GRAPH_NODE, INLINE, GRAPH_BREAK, CONSTANT, UNKNOWN = "graph-node", "inline", "graph-break", "constant", "unknown"

# Gb_types of the registry this module decides (their ids come from the registry).
SKIPPED = "Attempted to call function marked as skipped"
DISABLED = "Skip calling `torch.compiler.disable()`d function"
EXPLICIT_BREAK = "Call to `torch._dynamo.graph_break()`"
SKIP_FRAME = "Call to `torch._dynamo.skip_frame()`"
BUILTIN_OPERATOR = "Failed to trace builtin operator"
LOGGER = "logging.Logger method not supported for non-export cases"
DATA_DEPENDENT_BRANCH = "Data-dependent branching"
MISSING_NEXT = "Missing tp_iternext"
ITEM = "Unsupported Tensor.item() call with capture_scalar_outputs=False"
DATA_DEPENDENT_OP = "Data dependent operator"
DYNAMIC_SHAPE_OP = "Dynamic shape operator"
NUMPY_OFF = "Tensor.numpy() with trace_numpy=False"
NUMPY_FN_OFF = "attempted to trace numpy function with config.trace_numpy=False"
UNSUPPORTED_CTX = "Unsupported context manager"
SKIPPED_INLINE = "Attempted to inline function marked as skipped"
OBSERVED_EXCEPTION = "Observed exception"
TENSOR_REPR = "repr() on tensor"
DATA_PTR_COMPARE = "Data pointer comparison"
RNN_MODULE = "Attempted to wrap RNN, GRU, or LSTM"


@dataclass(frozen=True)
class Decision:
    action: str  # "graph-node" | "inline" | "graph-break" | "constant" | "unknown"
    variable_tracker: str  # TorchInGraphFunctionVariable, UserFunctionVariable, SkipFunctionVariable, ...
    gb_id: str | None = None
    gb_type: str | None = None
    reason: str = ""  # a short why, in Dynamo's words
    confidence: str = "high"
    skips_frame: bool = False  # Dynamo gives up on the whole frame (runs it eagerly), as after a break in a loop
    also: tuple[str, ...] = ()  # Gb_types torch reports next at the same line (the with-block it cannot resume)
    # a break Dynamo "cannot resume from": it compiles the graph up to it and runs the rest of the frame eagerly
    partial: bool = False

    @property
    def breaks(self) -> bool:
        return self.action == GRAPH_BREAK


ABSENT = object()  # an argument the call does not pass, or a constant the walk does not know


@dataclass(frozen=True)
class Arguments:
    """What a decision reads of a call's arguments (the receiver of a method not among them): the
    VariableTracker kind of each (TensorVariable, ConstantVariable, ...), a tensor's dtype when known,
    and the Python constants the walk knows."""

    kinds: tuple[str, ...] = ()
    keywords: tuple[tuple[str, str], ...] = ()  # (name, kind)
    constants: tuple[tuple[int | str, object], ...] = ()  # (position or keyword, value)
    dtypes: tuple[tuple[int | str, str], ...] = ()  # (position or keyword, dtype) of tensors
    sourced: tuple[int | str, ...] = ()  # arguments with a Source: read from outside the frame
    tensor_closures: tuple[int | str, ...] = ()  # functions made in the frame whose cells hold a tensor

    def __len__(self) -> int:
        return len(self.kinds) + len(self.keywords)

    def _at(self, position: int | None, keyword: str) -> int | str:
        """Where an argument is: its position when the call passes it positionally, else its keyword."""
        return position if position is not None and position < len(self.kinds) else keyword

    def kind(self, position: int | None, keyword: str = "") -> str | None:
        """The kind of the argument at `position` (None: keyword-only), or passed as `keyword`; None when
        the call does not pass it."""
        at = self._at(position, keyword)
        return self.kinds[at] if isinstance(at, int) else dict(self.keywords).get(at)

    def constant(self, position: int | None, keyword: str = "") -> object:
        return dict(self.constants).get(self._at(position, keyword), ABSENT)

    def dtype(self, position: int | None, keyword: str = "") -> str | None:
        return dict(self.dtypes).get(self._at(position, keyword))

    def tensor_among(self) -> bool:
        return TENSOR in self.kinds or any(kind == TENSOR for _, kind in self.keywords)

    def after_first(self) -> Arguments:
        """A function's arguments as its Tensor method sees them: `torch.unique(x, ...)` is `x.unique(...)`."""
        shift = {i: i - 1 for i in range(1, len(self.kinds))}

        def moved(pairs: tuple[tuple[int | str, Any], ...]) -> tuple[tuple[int | str, Any], ...]:
            return tuple((shift[k], v) if isinstance(k, int) and k in shift else (k, v)
                         for k, v in pairs if k != 0)

        def at(places: tuple[int | str, ...]) -> tuple[int | str, ...]:
            return tuple(shift.get(k, k) if isinstance(k, int) else k for k in places if k != 0)

        return Arguments(self.kinds[1:], self.keywords, moved(self.constants), moved(self.dtypes), at(self.sourced),
                         at(self.tensor_closures))


TENSOR = "TensorVariable"
NO_ARGUMENTS = Arguments()


@dataclass(frozen=True)
class GbEntry:
    """One graph-break registry id."""

    gb_id: str
    gb_type: str
    explanation: str
    hints: tuple[str, ...] = ()
    context: str = ""
    aliases: tuple[str, ...] = ()  # older Gb_types torch still maps to this id


@dataclass(frozen=True)
class Registry:
    """`graph_break_registry.json` of the snapshot's torch: GB id -> entry, and back by Gb_type."""

    entries: dict[str, GbEntry]
    by_type: dict[str, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, gb_id: object) -> bool:
        return gb_id in self.entries

    def get(self, gb_id: str) -> GbEntry | None:
        return self.entries.get(gb_id)

    def lookup(self, gb_type: str) -> GbEntry | None:
        """The entry of a Gb_type, as torch maps it (current or historical spelling)."""
        gb_id = self.by_type.get(gb_type)
        return self.entries.get(gb_id) if gb_id else None

    def id_of(self, gb_type: str) -> str | None:
        return self.by_type.get(gb_type)


def _registry_from(data: dict[str, Any]) -> Registry:
    entries: dict[str, GbEntry] = {}
    by_type: dict[str, str] = {}
    for gb_id, raw in data.items():
        entry = GbEntry(gb_id, raw["gb_type"], raw.get("explanation", ""), tuple(raw.get("hints", ())),
                        raw.get("context", ""), tuple(raw.get("aliases", ())))
        entries[gb_id] = entry
        for name in entry.aliases:
            by_type.setdefault(name, gb_id)
    for entry in entries.values():  # current spellings win over historical ones
        by_type[entry.gb_type] = entry.gb_id
    return Registry(entries, by_type)


@cache
def registry() -> Registry:
    return _registry_from(_snapshot().data["registry"])


def _snapshot() -> Snapshot:
    return current()


@dataclass(frozen=True)
class _Index:
    """The snapshot shaped for lookups: module lists as slash paths (check_file
    compares paths with `startswith`), measured names as sets."""

    torch_functions: dict[str, str]
    callables: dict[str, dict[str, Any]]
    known: dict[str, frozenset[str]]
    paths: dict[str, tuple[str, ...]]  # force_skip, legacy_mod_inlinelist, mod_inlinelist, mod_skiplist
    tops: dict[str, frozenset[str]]  # builtin_inline_when_called, builtin_skiplist, thirdparty_skiplist, c_modules
    unittest_skipped: bool
    tensor_methods: frozenset[str]
    probed: dict[str, str | None]  # qualname -> GB id of the break measured by the build, None: no break


@cache
def _index() -> _Index:
    data = _snapshot().data
    mods = data["modules"]
    callables = data.get("callables", {})
    return _Index(
        torch_functions=data["torch_functions"],
        callables=callables,
        known={m: frozenset(t.get("known", "").split()) for m, t in callables.items()},
        paths={k: tuple(n.replace(".", "/") for n in mods[k])
               for k in ("force_skip", "legacy_mod_inlinelist", "mod_inlinelist", "mod_skiplist")},
        tops={k: frozenset(mods[k]) for k in ("builtin_inline_when_called", "builtin_skiplist", "thirdparty_skiplist",
                                              "c_modules")},
        unittest_skipped=bool(mods.get("unittest_skipped", True)),
        tensor_methods=frozenset(data["tensor_methods"]),
        probed=dict(data.get("probed_calls", {})),
    )


def reset() -> None:
    """Forget the loaded snapshot (after `vtlint rules --refresh`, or in tests)."""
    registry.cache_clear()
    _index.cache_clear()


def snapshot_notifications() -> list[Notification]:
    """What the user should know about the snapshot in use (no torch, build failed)."""
    return list(_snapshot().notifications)


def _break(gb_type: str, vt: str, reason: str, confidence: str = "high", *, skips_frame: bool = False,
           also: tuple[str, ...] = (), partial: bool = False) -> Decision:
    return Decision(GRAPH_BREAK, vt, registry().id_of(gb_type), gb_type, reason, confidence, skips_frame, also,
                    partial)


# ---------------------------------------------------------------- comprehension frames

# Before Python 3.12 a comprehension is a function of its own, called with the iterator over its
# outermost iterable (`.0`). Run by a frame Dynamo skipped, it is a frame Dynamo compiles, `.0` an
# input: Dynamo iterates a tuple's or a range's iterator, and calls next() on no other (measured on
# torch 2.13: dict keys, values and items, list, set, str, zip and enumerate iterators are refused).
COMPILED_ITERATOR_INPUTS = frozenset({"tuple_iterator", "range_iterator"})
REFUSED_ITERATOR_INPUTS = frozenset({"dict_keyiterator", "dict_valueiterator", "dict_itemiterator", "list_iterator",
                                     "set_iterator", "str_ascii_iterator", "zip", "enumerate"})


def decide_iterator_input(type_name: str) -> Decision:
    """A comprehension frame compiled on its own, over an iterator of `type_name` handed in as `.0`."""
    if type_name in COMPILED_ITERATOR_INPUTS:
        return Decision(GRAPH_NODE, "ListIteratorVariable", reason=f"Dynamo iterates a {type_name} input")
    if type_name in REFUSED_ITERATOR_INPUTS:
        return _break("Missing tp_iternext", "UserDefinedObjectVariable",
                      f"Dynamo does not support next() on {type_name}: the comprehension's frame is skipped",
                      skips_frame=True)
    return Decision(UNKNOWN, "UserDefinedObjectVariable", reason=f"{type_name} as an input is not measured",
                    confidence="low")


# ---------------------------------------------------------------- builtins

# Builtins whose call Dynamo cannot trace: BuiltinVariable raises "Failed to trace
# builtin operator" (measured: print, breakpoint, input, globals, open).
_BUILTINS_THAT_BREAK = frozenset({"print", "input", "breakpoint", "globals", "open"})
# Builtins of the language whose result is a Python constant for constant inputs.
_CONSTANT_BUILTINS = frozenset({
    "isinstance", "issubclass", "len", "type", "callable", "hasattr", "getattr", "id", "range",
    "enumerate", "zip", "sorted", "reversed", "map", "filter", "any", "all", "min", "max", "sum",
    "abs", "round", "int", "float", "bool", "str", "tuple", "list", "dict", "set", "frozenset",
    "divmod", "pow", "chr", "ord", "hex", "oct", "bin", "format", "locals", "eval", "iter", "next",
    "setattr", "delattr", "super", "object", "slice", "repr", "ascii", "hash", "vars", "dir",
    "property", "staticmethod", "classmethod",
})


# Builtins applied to a tensor that read its value (measured): bool/int/float call
# Tensor.item(); str and print format it; repr has its own registry type.
# `range(t)`, `pow(t, 2)`, `sorted(t)`, `chr`/`hex`/`oct`/`bytes`/`complex` of a tensor have no tensor
# handler in BuiltinVariable ("Failed to trace builtin operator"); any()/all() iterate it and branch
# on each element (measured on torch 2.13).
_TENSOR_VALUE_BUILTINS = {"bool": ITEM, "int": ITEM, "float": ITEM, "str": BUILTIN_OPERATOR, "repr": TENSOR_REPR,
                          "format": BUILTIN_OPERATOR, **dict.fromkeys(("range", "pow", "sorted", "chr", "hex", "oct",
                                                                       "bytes", "complex"), BUILTIN_OPERATOR),
                          "any": DATA_DEPENDENT_BRANCH, "all": DATA_DEPENDENT_BRANCH}


def decide_builtin(name: str, settings: DynamoSettings, *, tensor_args: bool = False) -> Decision:
    """A call of the builtin `name` (print, len, isinstance, ...) in traced code;
    `tensor_args` when an argument is a tensor (`str(t)`, `bool(t)`)."""
    name = name.removeprefix("builtins.")
    if name in _BUILTINS_THAT_BREAK:
        return _break(BUILTIN_OPERATOR, "BuiltinVariable",
                      f"Dynamo does not know how to trace builtin operator `{name}`")
    if tensor_args and name == "hash":  # measured: hashing a FakeTensor raises while tracing
        return _break(OBSERVED_EXCEPTION, "BuiltinVariable", "hash() of a tensor raises while tracing; the exception "
                      "leaves the frame, which Dynamo skips", skips_frame=True)
    if tensor_args and name in _TENSOR_VALUE_BUILTINS:
        gb_type = _TENSOR_VALUE_BUILTINS[name]
        if gb_type == ITEM and settings.capture_scalar_outputs:
            return Decision(GRAPH_NODE, "BuiltinVariable", reason=f"`{name}(tensor)` becomes an unbacked symbol")
        return _break(gb_type, "BuiltinVariable", f"`{name}()` of a tensor needs the tensor's value")
    vt = _builtin_variable(name)
    if name in _CONSTANT_BUILTINS or vt != "BuiltinVariable":
        return Decision(CONSTANT if name in _CONSTANT_BUILTINS else INLINE, vt,
                        reason=f"builtin `{name}` is traced by {vt}")
    if name in _measured("builtins"):
        return Decision(GRAPH_NODE, vt, reason=f"builtin `{name}` is traced by {vt}", confidence="medium")
    return Decision(UNKNOWN, "BuiltinVariable", reason=f"`{name}` is not a builtin Dynamo knows", confidence="low")


def _builtin_variable(name: str) -> str:
    answer = _index().callables.get("builtins", {}).get("names", {}).get(name)
    return answer[0] if answer else "BuiltinVariable"


def _measured(module: str) -> frozenset[str]:
    return _index().known.get(module, frozenset())


# ---------------------------------------------------------------- functions

# Functions with their own handler in SkipFunctionVariable.call_function (measured).
_EXPLICIT = {
    "torch._dynamo.graph_break": (EXPLICIT_BREAK, "User-inserted graph break"),
    "torch._dynamo.skip_frame": (SKIP_FRAME, "User-inserted skip frame: the whole frame runs eagerly"),
    # in a frame with no speculation checkpoint to go back to (a plain compiled function) torch gives up the frame
    "torch._dynamo.step_unsupported": ("torch._dynamo.step_unsupported() with empty checkpoint",
                                       "User-inserted step_unsupported: the whole frame runs eagerly"),
    "torch.nn.Parameter": ("Attempted to use `torch.nn.Parameter()` constructor with Dynamo",
                           "Dynamo does not support creating an nn.Parameter inside the compiled region"),
    "torch.autograd.grad": ("using `torch.autograd.grad` with `torch._dynamo.config.trace_autograd_ops=False`",
                            "torch.autograd.grad is not traced (trace_autograd_ops=False)"),
}
# The module-level helpers of `random` Dynamo replays: called while tracing, the
# result becomes a graph input with a RandomValueSource (measured: no break). The
# other helpers (random.random, gauss, choice, shuffle, seed) are skipped.
_REPLAYED_RANDOM = frozenset({"random.randint", "random.randrange", "random.uniform"})
# torch's profiling context managers, built in traced code even outside a `with` (TorchCtxManagerClassVariable:
# ProfilerRecordFunctionContextVariable, ProfilerContextVariable); their files are on trace_rules' skip list
_PROFILER_CLASSES = frozenset({"torch.profiler.record_function", "torch.autograd.profiler.record_function",
                               "torch.profiler.profile", "torch.profiler.profiler.profile",
                               "torch.autograd.profiler.profile"})
_SKIPS_FRAME = frozenset({"torch._dynamo.skip_frame", "torch._dynamo.step_unsupported"})
_DISABLE_DECORATORS = frozenset({
    "torch.compiler.disable", "torch._dynamo.disable", "torch._dynamo.eval_frame.disable",
})
# torch's own `torch._disable_dynamo` (on `Optimizer.zero_grad`, `add_param_group`, ...) wraps the
# function in torch/_compile.py's `inner`, which trace_rules skips: a skipped call, not a disabled one
_SKIPPING_DECORATORS = frozenset({"torch._disable_dynamo", "torch._compile._disable_dynamo"})
_INLINE_VTS = frozenset({"UserFunctionVariable", "PolyfilledFunctionVariable", "NestedUserFunctionVariable",
                         "LocalGeneratorFunctionVariable"})


def is_disabled_decorator(qualname: str) -> bool:
    """`@torch.compiler.disable` / `@torch._dynamo.disable`: calls to the decorated
    function break the graph (GB0098) and the function itself runs eagerly."""
    return qualname.split("(")[0] in _DISABLE_DECORATORS


def decide_rnn_module(settings: DynamoSettings, *, in_root_frame: bool) -> Decision | None:
    """An nn.RNN / GRU / LSTM module in the traced code: Dynamo will not wrap it (GB0014) unless
    `torch._dynamo.config.allow_rnn` is set. In the compiled frame itself it cannot resume after it:
    the graph up to the call is compiled (if it has ops: measured, 1 graph after a Linear, 0 before
    anything), the rest of the frame runs eagerly; reached through an inlined call, the caller breaks
    at that call."""
    if settings.allow_rnn:
        return None
    return _break(RNN_MODULE, "NNModuleVariable", "Dynamo does not trace RNN, GRU or LSTM modules "
                  "(torch._dynamo.config.allow_rnn=False): the call runs eagerly", partial=in_root_frame)


def is_skipping_decorator(qualname: str) -> bool:
    """`@torch._disable_dynamo`: its wrapper lives in a file trace_rules skips."""
    return qualname.split("(")[0] in _SKIPPING_DECORATORS


def decide_skipped_wrapper(qualname: str, *, method: bool) -> Decision:
    """A call of a `torch._disable_dynamo` function: GB0007 for a function, GB0008 for a method,
    whose UserMethodVariable Dynamo tries to inline (measured)."""
    why = f"`{qualname}` is wrapped by torch._disable_dynamo, whose wrapper (torch/_compile.py) trace_rules skips"
    return _break(SKIPPED_INLINE, "UserMethodVariable", why) if method else _break(SKIPPED, "SkipFunctionVariable", why)


def is_replayed_random(qualname: str) -> bool:
    """`random.randint` and kin: called while tracing, their result a graph input (RandomValueSource)."""
    return qualname in _REPLAYED_RANDOM


def decide_unspecialized_arithmetic(*, in_root_frame: bool) -> Decision:
    """Python arithmetic on such a number (`n - w`, `k * 2`): it is an UnspecializedPythonVariable, a
    tensor to Dynamo, and the builtin operator on it is not implemented (measured: GB0213). The
    operator is no call Dynamo can resume after: the frame runs eagerly (measured: 0 graphs); inside an
    inlined function, the caller breaks at its call."""
    return _break("unimplemented builtin op on tensor arguments", "BuiltinVariable",
                  "a number from `random.randint` (and kin) is a graph input, a tensor to Dynamo: Python "
                  "arithmetic on it is a builtin operator on tensor arguments", skips_frame=in_root_frame)


def decide_library_inline(qualname: str, module: str, settings: DynamoSettings, *, method: bool) -> Decision:
    """A function of an installed package (torch's own Python included) that the walk would inline:
    trace_rules' file rules decide. A skipped method is a UserMethodVariable Dynamo refuses to
    inline (GB0008); a skipped function, GB0007 (measured: `sched.step()` of torch.optim.lr_scheduler). A numpy
    function is a NumpyVariable before any file rule (trace_rules.is_numpy), as the build measured it."""
    measured = _measured_callable(_package_name(qualname))
    if measured is not None and measured[0] == "NumpyVariable" and measured[2]:
        return _from_variable_tracker(qualname, measured[0], measured[1], settings)
    decision = _from_file_rules(qualname, module)
    if decision.breaks and method:
        return _break(SKIPPED_INLINE, "UserMethodVariable", decision.reason, decision.confidence)
    return decision


def decide_disabled_call(qualname: str, *, method: bool = False) -> Decision:
    """A call to a function decorated with `torch.compiler.disable`. A method's call is a UserMethodVariable
    Dynamo tries to inline, then refuses (measured: GB0099; a function's, GB0098)."""
    if method:
        return _break("Skip inlining `torch.compiler.disable()`d function", "UserMethodVariable",
                      f"`{qualname}` was wrapped with `torch.compiler.disable`: Dynamo skips inlining it")
    return _break(DISABLED, "SkipFunctionVariable",
                  f"`{qualname}` was wrapped with `torch.compiler.disable`: Dynamo skips calling it")


def decide_function(qualname: str, settings: DynamoSettings, *, defined_in: str | None = None,
                    tensor_args: bool = False, arguments: Arguments | None = None) -> Decision:
    """A call of the library function `qualname` (dotted, resolved through imports:
    `torch.nn.functional.relu`, `time.time`, `numpy.sin`, `logging.Logger.info`).
    `defined_in` is the module (or file) the function is defined in when it differs
    from the qualified name's module (a re-export); `tensor_args` when an argument is
    a tensor (`math.sqrt(t)` reads its value); `arguments` what the walk knows of them (None: nothing,
    the decision made on the name alone)."""
    qualname = _library_name(qualname.strip())
    tensor_args = tensor_args or (arguments is not None and arguments.tensor_among())
    if "." not in qualname or qualname.startswith("builtins."):
        return decide_builtin(qualname, settings, tensor_args=tensor_args)
    called = _torch_call(qualname, arguments, settings) if arguments is not None else None
    if called is not None:
        return called
    decision = _decide_function(qualname, settings, defined_in, tensor_args)
    probed = _index().probed
    if tensor_args or qualname not in probed:
        return decision
    if decision.variable_tracker == "NumpyVariable" and arguments is not None and len(arguments):
        # the build probes `numpy.random.rand()` bare: a Python float, read from a 0-d tensor (GB0033); with
        # sizes it makes an ndarray Dynamo traces as a tensor (measured: no break)
        return decision
    return _as_measured(qualname, decision, probed[qualname])


# torch.nn.Parameter as code names it (re-exported from torch.nn.parameter)
PARAMETERS = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
# torch._check and the handlers that share its message check, with the message's position
_CHECKS = {"torch._check": 1, "torch._check_index": 1, "torch._check_value": 1, "torch._check_type": 1,
           "torch._check_not_implemented": 1, "torch._check_with": 2}
# torch.Generator's stateful methods trace_rules skips (torch/_dynamo/trace_rules.py,
# _GENERATOR_METHODS_THAT_GRAPH_BREAK); called on a generator object they break (measured: GB7650)
_GENERATOR = ("torch.Generator.", "torch._C.Generator.", "torch.default_generator.")
_GENERATOR_METHODS = frozenset({"clone_state", "get_offset", "get_state", "graphsafe_get_state",
                                "graphsafe_set_state", "initial_seed", "manual_seed", "seed", "set_offset",
                                "set_state"})
# aten ops whose first overload is tagged `inplace_view` (what Dynamo reads), reached as torch functions
# (`torch.Tensor.unsqueeze_(x, 0)`): on an input Dynamo refuses them (measured: GB0072; tests/breaks checks
# the list against the installed torch's tags)
INPLACE_VIEW_OPS = frozenset({"as_strided_", "resize_as_", "set_", "t_", "transpose_", "unsqueeze_"})


def _torch_call(qualname: str, arguments: Arguments, settings: DynamoSettings) -> Decision | None:
    """The handlers of torch functions (TorchInGraphFunctionVariable) that refuse some arguments
    (measured on torch 2.13); None when the call is decided as any other."""
    vt = "TorchInGraphFunctionVariable"
    op = qualname.removeprefix("torch.")
    if qualname.startswith("torch.") and (op in DYNAMIC_SHAPE_OPS or op == _REPEATS):
        return _dynamic_shape(op, arguments.after_first(), settings)
    if qualname in _DYNAMIC_SHAPE_FUNCTIONS:
        return _dynamic_shape("unique", NO_ARGUMENTS, settings)
    if qualname == "torch.nn.functional.one_hot" and (
            len(arguments) == 1 or (len(arguments.kinds) == 2 and arguments.constant(1) == -1)):
        return _break("Attempted to use `torch.nn.functional.one_hot` with data-dependent output shape", vt,
                      "without num_classes the number of classes is the data's maximum plus one")
    if qualname in PARAMETERS:
        return _parameter(arguments)
    if qualname == "copy.deepcopy" and arguments.kind(0, "x") == TENSOR:
        return _break("Attempted to copy.deepcopy a tensor", "TensorVariable",
                      "Dynamo does not trace `Tensor.__deepcopy__`")
    if qualname in ("torch.compile", "torch.compiler.compile") and len(arguments.kinds) > 1:
        return _break("torch.compile call with > 1 args", vt, "torch.compile inside the compiled region is a "
                      "no-op only with the function alone")
    if qualname in _CHECKS:
        return _check_message(arguments, _CHECKS[qualname])
    if qualname.startswith(_GENERATOR) and qualname.rpartition(".")[2] in _GENERATOR_METHODS:
        return _break("torch.Generator method", "UserDefinedObjectVariable", f"`{qualname}` is a stateful RNG "
                      "operation Dynamo does not put in the graph")
    if _index().torch_functions.get(qualname) == "SparseTensorCreationSkipVariable":
        return _break("Sparse tensor creation not supported", "SparseTensorCreationSkipVariable",
                      f"`{qualname}` makes a sparse tensor, which torch.compile does not support")
    if qualname.startswith("torch.Tensor.") and qualname.rpartition(".")[2] in INPLACE_VIEW_OPS \
            and arguments.kind(0) == TENSOR and 0 in arguments.sourced:
        return _break("Inplace op on input tensor", vt, f"`{qualname}` changes the view of an input tensor in place")
    if qualname == "logging.getLogger" and len(arguments):
        # inlined, it compares the name with the root logger's through an attribute Dynamo cannot resolve
        return _break("Unresolved GetAttrVariable comparison", "UserFunctionVariable",
                      "logging.getLogger(name) compares names of the logging module's own objects")
    if qualname == "torch.is_inference_mode_enabled":
        return _break("Encountered torch.is_inference_mode_enabled during tracing", vt,
                      "Dynamo does not trace torch.is_inference_mode_enabled()")
    if arguments.constant(None, "requires_grad") is True and _index().torch_functions.get(qualname) == vt:
        return _break("Attempted to use tensor creation function with requires_grad=True", vt,
                      f"`{qualname}(..., requires_grad=True)` makes a leaf tensor inside the graph")
    return None


def _check_message(arguments: Arguments, at: int) -> Decision | None:
    """`torch._check(cond, message)` and kin: the message must be a function defined in the compiled region
    (a NestedUserFunctionVariable); any other (a module-level function, a string) breaks (GB9840)."""
    kind = arguments.kind(at, "message")
    place = at if at < len(arguments.kinds) else "message"
    if place in arguments.tensor_closures:
        return _break("Can't convert torch._check*() message closure", "TorchInGraphFunctionVariable",
                      "the message function of torch._check*() closes over a tensor, not Python constants")
    if kind is None or (kind == "UserFunctionVariable" and place not in arguments.sourced):
        return None
    return _break("Can't extract message from torch._check*()", "TorchInGraphFunctionVariable",
                  "the message of torch._check*() is not a function defined inside the compiled region")


def _parameter(arguments: Arguments) -> Decision:
    """`torch.nn.Parameter(data, requires_grad)`: Dynamo lifts a parameter made of an input tensor (one
    with a Source) as a graph input; one made of a tensor computed in the graph, or of anything else,
    breaks (call_nn_parameter)."""
    vt = "TorchInGraphFunctionVariable"
    grad = arguments.kind(1, "requires_grad")
    if grad is not None and arguments.constant(1, "requires_grad") is ABSENT:
        return _break("non-constant `requires_grad` argument to `torch.nn.Parameter`", vt,
                      "the requires_grad argument of torch.nn.Parameter is not a constant")
    if arguments.kind(0, "data") != TENSOR:
        return _break("`torch.nn.Parameter()` with unsupported data type", vt,
                      "torch.nn.Parameter needs a tensor")
    if 0 in arguments.sourced or "data" in arguments.sourced:
        return Decision(GRAPH_NODE, vt, reason="a parameter of an input tensor is lifted as a graph input")
    gb_type, why = _EXPLICIT["torch.nn.Parameter"]
    return _break(gb_type, "SkipFunctionVariable", why)


def _as_measured(qualname: str, decision: Decision, gb_id: str | None) -> Decision:
    """The build compiled a call of `qualname` with the installed torch: its outcome wins."""
    if gb_id is None:
        if not decision.breaks:
            return decision
        return Decision(INLINE, "UserFunctionVariable", reason=f"measured: `{qualname}` is traced without a graph break")
    if decision.breaks and decision.gb_id == gb_id:
        return decision
    entry = registry().get(gb_id)
    gb_type = entry.gb_type if entry else gb_id
    vt = decision.variable_tracker if decision.breaks else "UserFunctionVariable"
    return _break(gb_type, vt, f"measured: calling `{qualname}` in compiled code breaks the graph inside it ({gb_type})")


def _decide_function(qualname: str, settings: DynamoSettings, defined_in: str | None, tensor_args: bool) -> Decision:
    if tensor_args and qualname.startswith("math."):
        if settings.capture_scalar_outputs:
            return Decision(GRAPH_NODE, "TorchInGraphFunctionVariable", reason=f"`{qualname}` of an unbacked symbol")
        return _break(DATA_DEPENDENT_OP, "TorchInGraphFunctionVariable",
                      f"`{qualname}` of a tensor needs its value (aten._local_scalar_dense)")
    if qualname == "torch._dynamo.step_unsupported" and (settings.fullgraph or settings.error_on_graph_break):
        return _break("cannot resume from torch._dynamo.step_unsupported()", "SkipFunctionVariable",
                      "step_unsupported() under fullgraph=True / error_on_graph_break: an error, no break",
                      skips_frame=True)
    if qualname in _EXPLICIT:
        gb_type, why = _EXPLICIT[qualname]
        return _break(gb_type, "SkipFunctionVariable", why, skips_frame=qualname in _SKIPS_FRAME)
    if qualname.startswith(_LOGGER_METHOD):  # any method of a Logger, one a library adds too (`warning_once`)
        return _from_variable_tracker(qualname, "LoggingLoggerVariable", "a logging.Logger's method", settings)
    if qualname == "pdb.set_trace":  # measured: inlined until it reaches a skipped function
        return _break(SKIPPED, "UserFunctionVariable", "pdb.set_trace starts a debugger session through "
                      "functions trace_rules skips")
    if qualname == "torch.from_numpy" and not settings.trace_numpy:
        return _break("call `torch.from_numpy` with `torch._dynamo.config.trace_numpy=False`", "TorchInGraphFunctionVariable",
                      "torch.from_numpy with trace_numpy=False")
    if qualname in _PROFILER_CLASSES:
        return Decision(GRAPH_NODE, "TorchCtxManagerClassVariable",
                        reason=f"`{qualname}(...)` is a context manager object Dynamo models (profiling is ignored)")
    if qualname in _REPLAYED_RANDOM:
        return Decision(GRAPH_NODE, "UserDefinedObjectVariable",
                        reason=f"`{qualname}` is called while tracing; its result is a graph input (RandomValueSource)")
    rule = _index().torch_functions.get(qualname)
    if rule is not None:
        return _from_variable_tracker(qualname, rule, "trace_rules names it", settings)
    measured = _measured_callable(qualname) or _measured_callable(_public_name(qualname)) \
        or _measured_callable(_package_name(qualname))
    if measured is not None:
        vt, why, exact = measured
        decision = _from_variable_tracker(qualname, vt, why, settings)
        return decision if exact else _lower(decision, "medium")
    module = _module_of(defined_in) if defined_in else qualname.rpartition(".")[0]
    decision = _from_file_rules(qualname, module)
    if decision.breaks and _is_method(qualname):
        # a bound method is a UserMethodVariable: Dynamo tries to inline it, then refuses
        return _break(SKIPPED_INLINE, "UserMethodVariable", decision.reason, decision.confidence)
    return decision


# A Logger is a LoggingLoggerVariable, whose call_method refuses every method (torch/_dynamo/variables/misc.py)
_LOGGER_METHOD = "logging.Logger."
# Factories whose result's methods Dynamo treats specially.
_FACTORIES = {"logging.getLogger": "logging.Logger", "logging.getLoggerClass": None}


def factory_type(qualname: str) -> str | None:
    """`logging.getLogger` -> `logging.Logger`: the type a factory function's result has."""
    return _FACTORIES.get(qualname)


def instance_type(qualname: str) -> str | None:
    """The qualified type of what calling the library callable `qualname` returns, when
    its methods matter to Dynamo: `logging.getLogger(...)` is a `logging.Logger` (its
    methods break, GB0291); a class returns an instance of itself (`StepLR(...)`, whose
    `.step()` is decided as `torch.optim.lr_scheduler.StepLR.step`). None when unknown."""
    if qualname in _FACTORIES:
        return _FACTORIES[qualname]
    measured = _measured_callable(qualname)
    if measured is not None and measured[0] == "UserDefinedClassVariable" and measured[2]:
        return qualname
    last = qualname.rpartition(".")[2]
    return qualname if last[:1].isupper() and not last.isupper() else None


def _is_method(qualname: str) -> bool:
    """`pkg.mod.Class.method`: the part before the name is a class (CapWords)."""
    parts = qualname.split(".")
    return len(parts) >= 3 and parts[-2][:1].isupper() and not parts[-1][:1].isupper()


_INSTALL_ROOTS = (".site-packages.", ".dist-packages.")


def _library_name(qualname: str) -> str:
    """A dotted name made from an installed file's path (`...site-packages.tqdm.std.tqdm`)
    is the library's own name (`tqdm.std.tqdm`)."""
    for root in _INSTALL_ROOTS:
        if root in qualname:
            return qualname.rsplit(root, 1)[1]
    return qualname


def _public_name(qualname: str) -> str:
    """`numpy._core.umath.sin` -> `numpy.sin`: where a library defines a function
    privately and re-exports it (what the build measured)."""
    parts = qualname.split(".")
    if parts[0] == "torch":
        return qualname
    private = next((i for i, p in enumerate(parts[1:-1], 1) if p.startswith("_")), None)
    return qualname if private is None else ".".join([*parts[:private], parts[-1]])


def _package_name(qualname: str) -> str:
    """`numpy.lib._arraysetops_impl.isin` -> `numpy.isin`: re-exported at the package's top (what the build
    measured), when the private module sits below a public one."""
    parts = qualname.split(".")
    return f"{parts[0]}.{parts[-1]}" if any(p.startswith("_") for p in parts[1:-1]) else qualname


def _lower(decision: Decision, confidence: str) -> Decision:
    order = {"high": 2, "medium": 1, "low": 0}
    if order[confidence] < order[decision.confidence]:
        return Decision(decision.action, decision.variable_tracker, decision.gb_id, decision.gb_type,
                        decision.reason, confidence)
    return decision


def _from_variable_tracker(qualname: str, vt: str, why: str, settings: DynamoSettings) -> Decision:
    if vt == "SkipFunctionVariable":
        return _break(SKIPPED, vt, f"`{qualname}` is marked as skipped: {why}")
    if vt == "LoggingLoggerVariable":
        return _break(LOGGER, vt, f"`{qualname}` is a logging.Logger method")
    if vt == "NumpyVariable":
        if settings.trace_numpy and settings.use_numpy_random_stream and qualname.startswith("numpy.random."):
            # torch._numpy.random's functions, refused when numpy's own random stream must be kept
            return _break("attempted to trace torch._numpy.random function with config.use_numpy_random_stream=True",
                          vt, f"`{qualname}` with config.use_numpy_random_stream=True")
        if settings.trace_numpy and why == NOT_IN_TORCH_NUMPY:
            return _break("attempted to trace numpy function unsupported by PyTorch", vt,
                          f"torch._numpy has no `{qualname}`: NumpyVariable cannot map it to torch ops")
        if settings.trace_numpy:
            return Decision(GRAPH_NODE, vt, reason=f"`{qualname}` is traced as torch ops (trace_numpy)")
        return _break(NUMPY_FN_OFF, vt, f"`{qualname}` is a numpy function and trace_numpy is False")
    if vt == "TorchInGraphFunctionVariable":
        return Decision(GRAPH_NODE, vt, reason=f"`{qualname}` goes into the graph")
    if vt in _INLINE_VTS:
        return Decision(INLINE, vt, reason=f"Dynamo inlines `{qualname}` ({why})")
    if vt == "UserDefinedClassVariable":
        if why.startswith("class in a skipped file"):
            return _break(SKIPPED, vt, f"`{qualname}` is a class in a skipped file: {why.partition(': ')[2]}",
                          confidence="medium")
        return Decision(INLINE, vt, reason=f"constructing `{qualname}` inlines its __init__", confidence="medium")
    if vt == "UserDefinedObjectVariable" and why.startswith("callable object of C type"):
        return _break("Unsupported method call", vt, f"Dynamo does not know how to trace `__call__` of `{qualname}` "
                      f"({why})", confidence="medium")
    # BuiltinVariable and the specialised trackers (InspectSignatureVariable, ...)
    return Decision(GRAPH_NODE if "Builtin" in vt else CONSTANT, vt, reason=f"`{qualname}` is handled by {vt}",
                    confidence="medium" if "Builtin" not in vt else "high")


def _measured_callable(qualname: str) -> tuple[str, str, bool] | None:
    """(VariableTracker, reason, exact) from the measured modules: an exact name, or
    the module's most common answer for a name the build did not see."""
    index = _index()
    table = index.callables
    module, _, name = qualname.rpartition(".")
    while module:
        if module in table:
            answers = table[module]
            if name in answers["names"]:
                vt, why = answers["names"][name]
                return vt, why, True
            if name in index.known.get(module, ()):
                vt, why = answers["default"]
                return vt, why, True
            if "." in name:  # Class.method of a measured class: decided by the file rules
                return None
            vt, why = answers["default"]
            return vt, why, False
        module, _, head = module.rpartition(".")
        name = f"{head}.{name}"
    return None


def _module_of(defined_in: str) -> str:
    """A module name from a dotted name or a file path (relative to its library root)."""
    if "/" not in defined_in and "\\" not in defined_in and not defined_in.endswith(".py"):
        return defined_in
    path = defined_in.replace("\\", "/")
    for root in ("site-packages/", "dist-packages/"):
        if root in path:
            path = path.rsplit(root, 1)[1]
            break
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _under(path: str, prefixes: tuple[str, ...]) -> str | None:
    """check_file compares file paths with `startswith`, module dirs without a slash."""
    return next((p for p in prefixes if path.startswith(p)), None)


def _from_file_rules(qualname: str, module: str) -> Decision:
    """`check_file` for a Python function defined in `module` (is_inlined_call=True)."""
    index = _index()
    path = module.replace(".", "/")
    top = module.split(".")[0]
    hit = _under(path, index.paths["force_skip"])
    if hit:
        return _break(SKIPPED, "SkipFunctionVariable", f"file is force-skipped ({hit}.py)")
    hit = _under(path, index.paths["legacy_mod_inlinelist"])
    if hit:
        return Decision(INLINE, "UserFunctionVariable", reason=f"file matches LEGACY_MOD_INLINELIST ({hit})")
    hit = _under(path, index.paths["mod_inlinelist"])
    if hit:
        return Decision(INLINE, "UserFunctionVariable", reason=f"file matches MOD_INLINELIST ({hit})")
    if top in index.tops["builtin_inline_when_called"]:
        return Decision(INLINE, "UserFunctionVariable", reason=f"file matches BUILTIN_INLINE_WHEN_CALLED ({top})")
    if top == "unittest" and index.unittest_skipped:
        return _break(SKIPPED, "SkipFunctionVariable", "file is in unittest directory")
    if top in index.tops["builtin_skiplist"] or top in index.tops["thirdparty_skiplist"]:
        return _break(SKIPPED, "SkipFunctionVariable", f"file is under skip directory ({top})")
    hit = _under(path, index.paths["mod_skiplist"])
    if hit:
        return _break(SKIPPED, "SkipFunctionVariable", f"file matches MOD_SKIPLIST ({hit})")
    if top in index.tops["c_modules"]:
        return _break(SKIPPED, "SkipFunctionVariable",
                      f"cannot determine source file for {top} (likely a C extension or builtin)")
    return Decision(INLINE, "UserFunctionVariable", reason="inlined by default", confidence="medium")


# ---------------------------------------------------------------- Tensor methods

# Ops whose output shape depends on the data: aten ops tagged `dynamic_output_shape` (nonzero,
# argwhere, masked_select, _unique2, unique_consecutive, bincount, repeat_interleave.Tensor,
# _ctc_loss), as Tensor methods and torch functions; FakeTensor raises DynamicOutputShapeException
# unless capture_dynamic_output_shape_ops (measured on torch 2.13: "Dynamic shape operator", GB0036;
# tests/breaks checks the list against the installed torch's op tags).
DYNAMIC_SHAPE_OPS = frozenset({"nonzero", "argwhere", "masked_select", "unique", "unique_consecutive", "bincount"})
_DYNAMIC_SHAPE_FUNCTIONS = frozenset({"torch.nn.functional.ctc_loss", "torch.ctc_loss"})
# repeat_interleave is one only with a tensor of repeats and no output_size (`aten.repeat_interleave.Tensor`);
# `x.repeat_interleave(2, dim=-1)` is `repeat_interleave.self_int`, whose size Dynamo knows.
_REPEATS = "repeat_interleave"
_INTEGER_DTYPES = frozenset({"int64", "int32", "int16", "int8", "uint8", "bool"})
_UNSUPPORTED_METHODS = {
    "backward": "Unsupported Tensor.backward() call",
    "resize_": "Unsupported Tensor.resize_() call",
    "resize_as_": "Unsupported Tensor.resize_as_() call",
    "set_": "Unsupported Tensor.set_() call",
    "share_memory_": "Unhandled args for method",  # measured: the handler's signature rejects the call
    "random_": "Tensor.random_ op",
    "is_inference": "Encountered tensor.is_inference() during tracing",
    "sparse_resize_": "Unsupported Tensor.sparse_resize_() call",
    "sparse_resize_and_clear_": "Unsupported Tensor.sparse_resize_and_clear_() call",
    "__repr__": TENSOR_REPR,
    "retain_grad": "Tensor.retain_grad() with AOTDispatcher",
}
# Unsupported methods Dynamo refuses while reading the attribute (var_getattr), not calling it: no call
# to resume after, the frame runs eagerly (measured: 0 graphs with ops before it)
_REFUSED_ON_READ = frozenset({"retain_grad"})
# `set_(source)` of one tensor is traced (aten.set_.source_Tensor); the overloads with a storage offset
# and sizes are not (measured)
_SET = "set_"
# Methods that only break on some receivers (measured: on an intermediate, not on an input).
_SOMETIMES = {
    "requires_grad_": "requires_grad_() intermediate leaked as output",
}


def decide_tensor_method(name: str, settings: DynamoSettings, arguments: Arguments = NO_ARGUMENTS,
                         dtype: str | None = None, *, sourced: bool = False,
                         requires_grad: bool | None = None) -> Decision:
    """`tensor.<name>(...)` in traced code; `dtype` the receiver's when the walk knows it, `sourced` when
    the receiver has a Source (a graph input), `requires_grad` its flag when the walk knows it."""
    vt = "TensorVariable"
    if name == "item":
        if settings.capture_scalar_outputs:
            return Decision(GRAPH_NODE, vt, reason="capture_scalar_outputs: .item() becomes an unbacked SymInt/SymFloat")
        return _break(ITEM, vt, "`Tensor.item()` with config.capture_scalar_outputs=False")
    if name == "tolist":
        return _tolist(settings, dtype)
    if name == "numpy":
        if settings.trace_numpy:
            return Decision(GRAPH_NODE, "NumpyNdarrayVariable", reason="trace_numpy: the ndarray is traced as a tensor")
        return _break(NUMPY_OFF, vt, "`Tensor.numpy()` with config.trace_numpy=False")
    dynamic = _dynamic_shape(name, arguments, settings)
    if dynamic is not None:
        return dynamic
    if name == "uniform_" and arguments.kind(None, "from") is not None:  # `**{"from": a}`: "from" is a keyword
        return _break("Tensor.uniform_ op called with `from` keyword", vt, "Dynamo does not trace "
                      "`Tensor.uniform_()` with the `from` keyword")
    if name == _SET and len(arguments) <= 1:
        return Decision(GRAPH_NODE, vt, reason="`Tensor.set_(source)` is aten.set_.source_Tensor, in the graph")
    if name in _UNSUPPORTED_METHODS:
        return _break(_UNSUPPORTED_METHODS[name], vt, f"Dynamo does not trace `Tensor.{name}()`",
                      skips_frame=name in _REFUSED_ON_READ)
    if name == "requires_grad_" and sourced:
        return _requires_grad_of_input(arguments, requires_grad)
    if name == "data_ptr":  # comparing two of them breaks unless Dynamo proves them equal (GB5976)
        return Decision(CONSTANT, "DataPtrVariable", reason="`Tensor.data_ptr()` is a DataPtrVariable, not a tensor",
                        confidence="medium")
    if name in _SOMETIMES:
        return _break(_SOMETIMES[name], vt, f"`Tensor.{name}()` on a tensor computed in the graph", "medium")
    if name in _index().tensor_methods:
        return Decision(GRAPH_NODE, vt, reason=f"`Tensor.{name}` goes into the graph")
    return Decision(UNKNOWN, vt, reason=f"`{name}` is not a torch.Tensor method", confidence="low")


def _requires_grad_of_input(arguments: Arguments, requires_grad: bool | None) -> Decision:
    """`x.requires_grad_(flag)` on a graph input: a metadata mutation Dynamo cannot trace when it changes
    the flag (GB0125); one that leaves it as it is, is nothing (measured on torch 2.13)."""
    wanted = arguments.constant(0, "requires_grad")
    wanted = True if wanted is ABSENT and len(arguments) == 0 else wanted
    if requires_grad is not None and wanted is not ABSENT and bool(wanted) == requires_grad:
        return Decision(CONSTANT, "TensorVariable", reason="`requires_grad_()` leaves the input's flag as it is")
    return _break("Unsupported Tensor.requires_grad_() call", "TensorVariable",
                  "`requires_grad_()` on a graph input changes its requires_grad: a metadata mutation Dynamo "
                  "does not trace", "high" if requires_grad is not None else "medium")


# What torch._numpy does not model of an ndarray that `Tensor.numpy()` made under trace_numpy
# (NumpyNdarrayVariable; measured on torch 2.13)
_NDARRAY_ATTRIBUTES = frozenset({"base", "flags", "dtype"})
_NDARRAY_METHODS = frozenset({"tobytes", "tostring"})


def decide_ndarray_attribute(name: str) -> Decision | None:
    """`a.<name>` of an ndarray traced as a tensor: `base`, `flags` and `dtype` are refused when read
    (GB0157; no call to resume after: the graph before it is compiled, the rest of the frame runs eagerly,
    measured), `tobytes()`/`tostring()` when called (GB0158); None for what torch._numpy models."""
    if name in _NDARRAY_ATTRIBUTES:
        return _break("Unsupported ndarray attribute access", "NumpyNdarrayVariable",
                      f"Dynamo does not trace `ndarray.{name}`", partial=True)
    if name == "__version__":  # no ndarray has one: eagerly an AttributeError
        return _break("Unsupported ndarray.__version__ access", "NumpyNdarrayVariable",
                      "Dynamo does not trace `ndarray.__version__`", partial=True)
    if name in _NDARRAY_METHODS:
        return _break("Unsupported ndarray method call", "NumpyNdarrayVariable",
                      f"`ndarray.{name}()` is not modelled in torch._numpy")
    return None


BUILTIN_EXCEPTIONS = frozenset(name for name, obj in vars(builtins).items()
                                if isinstance(obj, type) and issubclass(obj, BaseException))


def decide_exception_keywords() -> Decision:
    """A builtin exception constructed with keyword arguments (`ImportError(msg, name=...)`): Dynamo's
    ExceptionVariable takes positional arguments only (measured: GB0273; the frame resumed after it, or
    skipped inside a try)."""
    return _break("Keyword args passed to exception constructor", "ExceptionVariable",
                  "Dynamo does not handle keyword arguments passed to an exception constructor")


REMOVABLE_HANDLE = "torch.utils.hooks.RemovableHandle"  # what `Tensor.register_hook` returns
GENERATOR_CONTEXT = "contextlib._GeneratorContextManager"  # what calling a @contextmanager function makes
# objects made in the frame that Dynamo cannot rebuild for the caller when the frame returns them (measured:
# the frame runs eagerly)
_UNRETURNABLE = {GENERATOR_CONTEXT: "reconstructing @contextmanager object",
                 "torch.profiler.profile": "torch.profiler object escaped from compiled region",
                 "torch.autograd.profiler.profile": "torch.profiler object escaped from compiled region"}
PROFILERS = frozenset(k for k in _UNRETURNABLE if k != GENERATOR_CONTEXT)


def decide_returned_object(ref: str | None) -> Decision | None:
    """A context manager made in the frame and returned from it: a @contextmanager's object (GB2533) or a
    torch.profiler.profile (GB0212) cannot be reconstructed outside the graph."""
    gb_type = _UNRETURNABLE.get(ref or "")
    if gb_type is None:
        return None
    return _break(gb_type, "ContextWrappingVariable", f"Dynamo cannot rebuild the `{ref}` object the frame "
                  "returns", skips_frame=True)


def decide_global_hook_handle() -> Decision:
    """A tensor hook's handle stored in a global of the frame (`global handle; handle = x.register_hook(f)`):
    STORE_GLOBAL refuses a RemovableHandleVariable (measured: GB0100, the frame run eagerly)."""
    return _break("Storing Tensor hook handle in globals", "RemovableHandleVariable",
                  "Dynamo does not store a tensor hook's handle in a global", skips_frame=True)


# the attributes ExceptionVariable.call_setattr models
_EXCEPTION_ATTRIBUTES = frozenset({"__context__", "__cause__", "__suppress_context__", "__traceback__"})


def decide_exception_store(ref: str | None, name: str) -> Decision | None:
    """`err.code = 3` on a builtin exception made in the frame: Dynamo models four attributes of an exception
    object and refuses any other (measured: GB0135, resumed after)."""
    if not (ref or "").startswith("builtins.") or ref.removeprefix("builtins.") not in BUILTIN_EXCEPTIONS \
            or name in _EXCEPTION_ATTRIBUTES:
        return None
    return _break("Unsupported attribute assignment on Exception object", "ExceptionVariable",
                  f"Dynamo does not set `{name}` on an exception object")


def decide_set_of_tensors() -> Decision:
    """A set holding tensors, read from outside the frame: VariableBuilder refuses it when the lazy input is
    first read (measured: GB0222, no graph: the frame runs eagerly)."""
    return _break("Attempted to wrap a set with tensors", "SetVariable",
                  "Dynamo cannot trace a set of tensors: its order is not stable", skips_frame=True)


def decide_uninitialized_module() -> Decision:
    """An nn.Module whose `__init__` ran no other `__init__` (so not nn.Module's: its `__dict__` is empty), read
    in traced code: VariableBuilder refuses it where it is first read (measured: GB0119; no call to resume
    after: the graph before it is compiled, the rest of the frame runs eagerly)."""
    return _break("Uninitialized nn.Module", "UnspecializedNNModuleVariable",
                  "the module's nn.Module.__init__ never ran: Dynamo does not trace an uninitialized module",
                  partial=True)


def decide_module_reinit() -> Decision:
    """`super().__init__()` reaching nn.Module.__init__ on a module that exists outside the frame (in its
    `forward`): Dynamo refuses it (measured: GB0162, resumed after the call)."""
    return _break("Unsupported super().__init__() call", "SuperVariable",
                  "nn.Module.__init__ on a module that existed before the frame is not traced")


def decide_ndarray_astype_object() -> Decision:
    """`a.astype(object)` / `a.astype("O")` of an ndarray traced as a tensor: there is no object tensor
    (measured: GB0250; the graph before it is compiled, and the resumed frame fails to wrap the object array
    at its first use, "failed to convert numpy.ndarray to Tensor", and runs eagerly)."""
    return _break("ndarray.astype(object)", "NumpyNdarrayVariable",
                  "there is no tensor of Python objects: `ndarray.astype(object)` runs eagerly", partial=True)


def _tolist(settings: DynamoSettings, dtype: str | None) -> Decision:
    """`Tensor.tolist()`: on an integer tensor each element is an `.item()` ("Data dependent operator"
    unless capture_scalar_outputs), on any other Dynamo refuses (measured). A dtype the walk does not
    know is most often the default float one."""
    vt = "TensorVariable"
    if dtype in _INTEGER_DTYPES:
        if settings.capture_scalar_outputs:
            return Decision(GRAPH_NODE, vt, reason="capture_scalar_outputs: each element an unbacked SymInt")
        return _break(DATA_DEPENDENT_OP, vt, f"`tolist()` of a {dtype} tensor reads each element's value "
                      "(aten._local_scalar_dense)")
    if dtype is not None:
        return _break("Tensor.tolist() with non-integer tensor", vt,
                      f"Dynamo does not trace `tolist()` on a {dtype} tensor")
    if settings.capture_scalar_outputs:
        return Decision(GRAPH_NODE, vt, reason="capture_scalar_outputs: .tolist() of an integer tensor is traced",
                        confidence="medium")
    return _break("Tensor.tolist() with non-integer tensor", vt,
                  "Dynamo does not trace `tolist()` on non-integer tensors; on an integer tensor it "
                  "reads the values (Data dependent operator)", confidence="medium")


def _dynamic_shape(name: str, arguments: Arguments, settings: DynamoSettings) -> Decision | None:
    """The op `name` (a Tensor method's name, its arguments without the receiver) when its output shape
    depends on the data; None for any other op."""
    if name == _REPEATS:
        repeats = arguments.kind(0, "repeats")
        if repeats != TENSOR or arguments.kind(None, "output_size") is not None:
            return None
    elif name not in DYNAMIC_SHAPE_OPS:
        return None
    if settings.capture_dynamic_output_shape_ops:
        return Decision(GRAPH_NODE, "TensorVariable",
                        reason=f"capture_dynamic_output_shape_ops: `{name}`'s size is an unbacked SymInt")
    return _break(DYNAMIC_SHAPE_OP, "TensorVariable", f"`{name}()`'s output shape depends on the tensor's data "
                  "(capture_dynamic_output_shape_ops=False)")


def decide_data_ptr_compare(settings: DynamoSettings) -> Decision:
    """`a.data_ptr() == b.data_ptr()`: Dynamo cannot compare two DataPtrVariables
    it has not proven to be the same tensor's (measured: GB5976 when they differ)."""
    return _break(DATA_PTR_COMPARE, "DataPtrVariable", "comparing the data pointers of two tensors needs their "
                  "storage, which tracing with FakeTensors does not have", confidence="medium")


def decide_tensor_index(container: str, settings: DynamoSettings) -> Decision:
    """`items[k]` of a list or tuple, or `w[k]` of a tensor, with `k` a 0-d integer tensor (`x.argmax()`):
    the index is the tensor's value. A list reads it with `.item()` ("Unsupported Tensor.item() call",
    GB0124), a tensor with aten._local_scalar_dense ("Data dependent operator", GB0033), unless
    capture_scalar_outputs makes it an unbacked SymInt (measured on torch 2.13)."""
    if settings.capture_scalar_outputs:
        return Decision(GRAPH_NODE, "TensorVariable", reason="capture_scalar_outputs: the index is an unbacked SymInt")
    if container == "TensorVariable":
        return _break(DATA_DEPENDENT_OP, "TensorVariable", "indexing a tensor with a 0-d tensor reads the index's "
                      "value (aten._local_scalar_dense)")
    return _break(ITEM, "TensorVariable", f"indexing a {container} with a tensor reads the index's value with "
                  "`Tensor.item()`")


def decide_where_of_condition(settings: DynamoSettings) -> Decision:
    """`torch.where(mask)` with the condition alone is `torch.nonzero(mask, as_tuple=True)`: the
    number of indices depends on the data (measured: GB0036 Dynamic shape operator)."""
    if settings.capture_dynamic_output_shape_ops:
        return Decision(GRAPH_NODE, "TensorVariable", reason="capture_dynamic_output_shape_ops: an unbacked size")
    return _break(DYNAMIC_SHAPE_OP, "TensorVariable",
                  "torch.where(condition) returns the indices where it holds, whose number depends on the data")


def decide_boolean_mask(settings: DynamoSettings) -> Decision:
    """`t[mask]` with a boolean tensor `mask`: the result's shape depends on the data."""
    if settings.capture_dynamic_output_shape_ops:
        return Decision(GRAPH_NODE, "TensorVariable", reason="capture_dynamic_output_shape_ops: an unbacked size")
    return _break(DYNAMIC_SHAPE_OP, "TensorVariable",
                  "indexing with a boolean mask gives a shape that depends on the tensor's data")


# ---------------------------------------------------------------- attribute stores on tensors


_GETSET_STORES = frozenset({"real", "imag"})


def decide_tensor_store(name: str, *, sourced: bool, dtype: str | None, new_dtype: str | None) -> Decision | None:
    """`t.<name> = value` in traced code (BuiltinVariable.call_setattr on a TensorVariable; measured on torch
    2.13): `requires_grad` is never traced, `data` only on a graph input (one with a Source) and to a tensor
    of the same dtype; a complex tensor's `real`/`imag` (C getset descriptors with their own setters) never.
    None for a store Dynamo traces (`.grad`, `.data` of an input)."""
    vt = "TensorVariable"
    if name in _GETSET_STORES:
        return _break("Failed to set tensor attribute", vt, f"Dynamo does not trace setting `Tensor.{name}`")
    if name == "requires_grad":
        return _break("setattr() on Tensor.requires_grad", vt, "setting `requires_grad` can make a new leaf "
                      "in the middle of the graph, which AOTAutograd does not handle")
    if name != "data":
        return None
    if not sourced:
        return _break("Failed to mutate tensor data attribute", vt,
                      "`.data` can be set only on a tensor made outside the compiled region")
    if dtype and new_dtype and dtype != new_dtype:
        return _break("Failed to mutate tensor data attribute to different dtype", vt,
                      f"`.data` of a {dtype} input set to a {new_dtype} tensor")
    return None


def decide_closure_repr() -> Decision:
    """`repr(f)` of a function made in the frame that closes over a tensor: Dynamo builds the function to
    format it, and cannot make its closure of Python constants (measured: GB1584)."""
    return _break("repr() on nested function with non-constructible closure", "NestedUserFunctionVariable",
                  "the function closes over a tensor, so Dynamo cannot rebuild it to call repr() on it")


def decide_fake_id_compare() -> Decision:
    """`id(a) < id(b)`, `id(a) == 0`: the id() of a container made in the frame is a FakeIdVariable, which
    Dynamo compares only with another of its kind for equality; any other comparison breaks (GB9316), and
    the resume function cannot be handed the fake id either (GB4501 at the same line): the frame is
    skipped (measured on torch 2.13, 0 graphs)."""
    return _break("Comparison on compile-time-only id or hash value", "FakeIdVariable",
                  "the id() of a container made in the frame exists only while tracing",
                  skips_frame=True, also=("Reconstruction of FakeIdVariable",))


def decide_sort_keys() -> Decision:
    """sorted(..., key=f) / list.sort(key=f) in traced code: Dynamo calls `f` on each element while tracing
    and sorts by the results only when all of them are Python constants; a tensor key breaks (measured:
    GB0207, the sort running eagerly and the frame resuming after it)."""
    return _break("sort with non-constant keys", "ListVariable",
                  "the sort keys are tensors, whose order Dynamo cannot know while tracing")


def decide_class_assignment() -> Decision:
    """`obj.__class__ = Other` on a user object in traced code (measured: GB4271, the frame resuming after)."""
    return _break("__class__ assignment on user-defined object", "UserDefinedObjectVariable",
                  "Dynamo does not trace changing an object's class")


# Class decorators whose classes Dynamo refuses to construct (measured)
_REFUSED_CLASS_DECORATORS = {"pydantic.dataclasses.dataclass": "Pydantic dataclass constructor"}


def decide_class_call(decorators: list[str]) -> Decision | None:
    """Calling a class of the project in traced code, by its decorators: a pydantic dataclass's
    constructor is refused (GB3383, resumed after); None for a class Dynamo constructs."""
    for decorator in decorators:
        gb_type = _REFUSED_CLASS_DECORATORS.get(decorator.split("(")[0])
        if gb_type is not None:
            return _break(gb_type, "UserDefinedClassVariable", f"Dynamo does not trace `{decorator}`'s constructor")
    return None


def decide_typed_dict(bases: list[str], optional_keys: bool) -> Decision | None:
    """Calling a TypedDict class in traced code builds a dict, unless some of its keys are optional
    (`total=False`, `NotRequired[...]`): then Dynamo refuses it (measured: GB0257, resumed after)."""
    if not optional_keys or not any(b.rpartition(".")[2] == "TypedDict" for b in bases):
        return None
    return _break("TypedDict with optional keys", "UserDefinedClassVariable",
                  "Dynamo does not trace a TypedDict with optional keys")


# ---------------------------------------------------------------- class statements


def decide_class_statement(settings: DynamoSettings) -> Decision | None:
    """A `class` statement in traced code: `__build_class__` is traced only with
    config.enable_trace_load_build_class (off by default; measured: GB8977 at the class line)."""
    if settings.enable_trace_load_build_class:
        return None
    return _break("Invalid call to __build_class__", "BuiltinVariable",
                  "Dynamo does not trace a class definition (enable_trace_load_build_class=False)")


def decide_frame_class_returned() -> Decision:
    """An instance of a class the frame itself defined, returned from it: the class has no Source to rebuild
    the object from (measured with enable_trace_load_build_class: GB1319 at the return, the frame run eagerly)."""
    return _break("Reconstruct user defined class without a source", "UserDefinedObjectVariable",
                  "the object's class was made in the frame: Dynamo cannot rebuild it outside the graph",
                  skips_frame=True)


# ---------------------------------------------------------------- control flow

# "assert-jump": an `assert` whose message is not a literal, left a plain jump (measured: GB0170 on a tensor)
_BRANCHES = frozenset({"if", "while", "ternary", "and", "or", "not-if", "assert-jump"})


def decide_branch(construct: str, settings: DynamoSettings) -> Decision:
    """A jump on a tensor's value: `if t:`, `while t:`, `a if t else b`, `t and u`,
    `t or u`, `assert t`. Dynamo cannot know the value while tracing, except for
    `assert`, which it turns into `torch._assert_async` (no break, measured)."""
    if construct == "assert":
        return Decision(GRAPH_NODE, "TensorVariable",
                        reason="`assert` on a tensor is traced as torch._assert_async")
    if construct not in _BRANCHES:
        return Decision(UNKNOWN, "TensorVariable", reason=f"unknown construct {construct!r}", confidence="low")
    return _break(DATA_DEPENDENT_BRANCH, "TensorVariable",
                  "Detected data-dependent branching: the condition depends on a tensor's value")


def decide_failing_assert() -> Decision:
    """An `assert` whose condition is a Python constant False inside a `try` of the frame: the exception
    would be raised and caught, and Dynamo cannot compile the graph up to it there (measured: GB0034, the
    frame skipped)."""
    return _break("Data-dependent assertion failed (cannot compile partial graph)", "ConstantVariable",
                  "the assertion fails while tracing, inside a try block Dynamo cannot resume in",
                  skips_frame=True)


def decide_assertion_message() -> Decision:
    """A failing `assert` whose message is not a string constant: Dynamo builds `AssertionError(message)` and
    refuses it (measured: GB0171 at the assert; the frame skipped inside a try, resumed elsewhere)."""
    return _break("assert with non-string message", "BuiltinVariable",
                  "Dynamo only supports asserts with string messages: the failing assert's message is not one")


def decide_autograd_apply(overrides: set[str], repeated_tensor: bool) -> Decision | None:
    """`Fn.apply(...)` where Dynamo traces the backward too (an input needs grad, grad mode on), as
    AutogradFunctionVariable.call_apply checks it: a custom `vjp` (GB0145), then `jvp` (GB0144), then one
    tensor passed to two forward inputs (GB6297). Each breaks at the call, and the eager apply's `forward`
    is compiled as a frame of its own (measured)."""
    if "vjp" in overrides:
        return _break("Unsupported custom vjp", "AutogradFunctionVariable",
                      "Dynamo does not trace torch.autograd.Function subclasses that define a custom `vjp`")
    if "jvp" in overrides:
        return _break("Unsupported custom jvp", "AutogradFunctionVariable",
                      "Dynamo does not trace torch.autograd.Function subclasses that define a custom `jvp`")
    if repeated_tensor:
        return _break("autograd.Function.apply: duplicate tensor input", "AutogradFunctionApplyVariable",
                      "the same tensor is passed to two inputs of the Function's forward")
    return None


def decide_autograd_function_method() -> Decision:
    """A plain method called on a torch.autograd.Function object made in the frame: Dynamo traces only
    `apply`, `backward`, static and class methods there (measured: GB0140, then a Reconstruction failure at
    the same line for the object the eager call needs; the frame runs eagerly, the method compiled as a
    frame of its own)."""
    return _break("Unsupported autograd.Function method", "AutogradFunctionVariable",
                  "Dynamo does not call a plain method on a torch.autograd.Function object",
                  skips_frame=True, also=("Reconstruction failure",))


def decide_generator_method(name: str) -> Decision:
    """`gen.send(v)` / `throw` / `close` on a generator object made outside the frame: with
    config.enable_faithful_generator_behavior (on by default) Dynamo refuses methods of an existing generator
    (measured: GB0253, resumed after)."""
    return _break("call_method on generator", "UserDefinedObjectVariable",
                  f"Dynamo does not call `{name}()` on a generator object made outside the traced frame")


# what DebuggingVariable.can_reorder_logs accepts: TensorVariable, ConstantVariable, StringFormatVariable
_REORDERABLE_ARGUMENTS = frozenset({"TensorVariable", "ConstantVariable"})


def decide_reordered_logging(name: str, kinds: list[str]) -> Decision:
    """A function the source adds to config.reorderable_logging_functions: Dynamo calls it after the graph,
    if every argument is a tensor, a constant or a string formatter; any other argument breaks (measured:
    GB0296, resumed after)."""
    if all(kind in _REORDERABLE_ARGUMENTS for kind in kinds):
        return Decision(CONSTANT, "DebuggingVariable", reason=f"`{name}` is reordered after the graph")
    return _break("attempted to reorder a debugging function that can't actually be reordered", "DebuggingVariable",
                  f"`{name}` is reorderable only with tensor, constant or string-formatter arguments")


def decide_missing_next() -> Decision:
    """FOR_ITER on a `zip` in a resume function (measured: its iterator is rebuilt for the resume, and
    `next()` on it is not traced): the resume frame is skipped."""
    return _break(MISSING_NEXT, "ZipVariable", "Dynamo does not support next() on zip in the resume function "
                  "of a loop that broke: the rest of the loop runs eagerly", skips_frame=True)


def decide_raise(caught: bool, settings: DynamoSettings) -> Decision:
    """A `raise` in traced code: Dynamo traces a raise caught in the same frame
    (measured: no break); one that escapes the frame is an "Observed exception"."""
    if caught:
        return Decision(CONSTANT, "ExceptionVariable", reason="the exception is raised and caught while tracing")
    return _break(OBSERVED_EXCEPTION, "ExceptionVariable",
                  "the exception leaves the traced frame: Dynamo skips the frame and re-raises it eagerly",
                  skips_frame=True)


# ---------------------------------------------------------------- with-statements

# Context managers Dynamo enters (measured); torch ones come from the snapshot
# (TorchCtxManagerClassVariable and kin).
_SUPPORTED_CTX = frozenset({
    "contextlib.nullcontext", "contextlib.suppress", "warnings.catch_warnings",
    "torch.profiler.record_function", "torch.autograd.profiler.record_function",
    "torch.profiler.profile", "torch.autograd.profiler.profile",
})
_UNSUPPORTED_CTX = {
    "open": "open() is a builtin Dynamo does not trace, and the file object is not a context manager it can enter",
    "builtins.open": "open() is a builtin Dynamo does not trace",
    "io.open": "open() is a builtin Dynamo does not trace",
    "threading.Lock": "Dynamo does not know how to enter a `_thread.lock` context manager",
    "threading.RLock": "Dynamo does not know how to enter a `_thread.RLock` context manager",
    # a torch.device is a constant to Dynamo, not a context manager it models (measured: GB0142, frame skipped)
    "torch.device": "Dynamo does not know how to enter a `torch.device` context manager",
}
# contextlib's managers Dynamo refuses to build (UserDefinedClassVariable, "unsupported contextlib.* API");
# the resumed frame then cannot enter the object eagerly made, and runs eagerly (measured: GB0262, then GB0142
# at the same line, and only the graph before it)
_CONTEXTLIB_REFUSED = frozenset({"contextlib.closing", "contextlib.redirect_stdout", "contextlib.redirect_stderr"})


def decide_generator_context_manager(settings: DynamoSettings) -> Decision | None:
    """`with section():` of a project function decorated with contextlib.contextmanager: Dynamo builds the
    _GeneratorContextManager and inlines it, unless config.enable_trace_contextlib is off (measured: GB0263,
    then GB0142 at the same line, and only the graph before it)."""
    if settings.enable_trace_contextlib:
        return None
    return _break("attempted to trace contextlib.contextmanager", "UserDefinedClassVariable",
                  "tracing contextlib.contextmanager is disabled (config.enable_trace_contextlib=False)",
                  also=(UNSUPPORTED_CTX,), partial=True)


RECORD_FUNCTION_ESCAPED = "record_function escaped from compiled region"
# record_function as Dynamo enters it when config.capture_profiler_record_function is on
RECORD_FUNCTION = frozenset({"torch.profiler.record_function", "torch.autograd.profiler.record_function"})


def decide_context_manager(qualname: str, settings: DynamoSettings) -> Decision:
    """`with <qualname>(...):` in traced code (a library context manager; the user's
    own generator-based context managers are inlined by the walk)."""
    if qualname in _UNSUPPORTED_CTX:
        if "open" in qualname:  # the call breaks first; the resumed frame cannot enter the file object
            return _break(BUILTIN_OPERATOR, "BuiltinVariable", _UNSUPPORTED_CTX[qualname], also=(UNSUPPORTED_CTX,))
        return _break(UNSUPPORTED_CTX, "UserDefinedObjectVariable", _UNSUPPORTED_CTX[qualname], skips_frame=True)
    if qualname in _CONTEXTLIB_REFUSED:
        return _break("unsupported contextlib.* API", "UserDefinedClassVariable",
                      f"Dynamo does not build `{qualname}` (it relies on exception handling Dynamo does not "
                      "trace)", also=(UNSUPPORTED_CTX,), partial=True)
    if qualname in _SUPPORTED_CTX:
        return Decision(GRAPH_NODE, "ContextWrappingVariable", reason=f"Dynamo enters `{qualname}`")
    rule = _index().torch_functions.get(qualname)
    if rule is not None:
        if "Ctx" in rule or "ContextWrapping" in rule or rule == "TorchInGraphFunctionVariable":
            return Decision(GRAPH_NODE, rule, reason=f"Dynamo enters `{qualname}` ({rule})")
        return _from_variable_tracker(qualname, rule, "trace_rules names it", settings)
    if qualname.startswith("torch."):
        return Decision(GRAPH_NODE, "TorchCtxManagerClassVariable", reason=f"a torch context manager `{qualname}`",
                        confidence="medium")
    decision = decide_function(qualname, settings)
    if decision.breaks:
        return decision
    return Decision(INLINE, "GenericContextWrappingVariable",
                    reason=f"Dynamo inlines `{qualname}`'s __enter__ and __exit__", confidence="low")
