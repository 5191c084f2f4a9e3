"""LibraryValue: a dotted name outside the project (`torch.sin`, `time.time`, `F.dropout`, a
module, a method of a library object). Calling it asks the installed torch's trace_rules
(through `breaks`, the one gate) whether Dynamo puts it in the graph, inlines it, or breaks."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import libcst as cst

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.bounds import ITEMS, TooLarge, checked, described, fits
from vtlint.analyzer.sources import AttrSource, LocalSource, Source, attr_source, item_source
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables import data_files, environment
from vtlint.analyzer.variables.arguments import arguments_of
from vtlint.analyzer.variables.command_line import PARSER_CLASSES, new_parser
from vtlint.analyzer.variables.config_text import PARSERS, parse_config_text
from vtlint.analyzer.variables.data import DATASETS, LOADERS, dataset, loader
from vtlint.analyzer.variables.dicts import dict_of
from vtlint.analyzer.variables.optimizer import BASE as OPTIMIZER_BASE
from vtlint.analyzer.variables.optimizer import call_base
from vtlint.analyzer.variables.shapes import data_dependent, values_of
from vtlint.analyzer.variables.tensor import (
    DTYPE_NAMES,
    MARKS,
    NDARRAY,
    created,
    grad_of,
    is_floating,
    known_sizes,
    mark,
    size_of_tensor,
    tensor,
)
from vtlint.analyzer.variables.user_defined import field_names, fill_dict_storage, in_instance_dict, is_dataclass_like
from vtlint.trace import Action

if TYPE_CHECKING:
    from vtlint.analyzer.index import Parsed
    from vtlint.analyzer.walk import Act, Walker

# "Am I being compiled?" checks: Dynamo traces each as the constant True.
COMPILING_CHECKS = frozenset({
    "torch.compiler.is_compiling", "torch.compiler.is_dynamo_compiling", "torch._dynamo.is_compiling",
    "torch._utils.is_compiling", "torch._dynamo.external_utils.is_compiling",
    "torch._dynamo.eval_frame._is_in_optimized_module",
})
# The rest of Dynamo's `tracing_state_functions`, answered as constants under torch.compile
# (`is_exporting` reads the export flag, False outside torch.export); eager code gets them too.
TRACING_STATE = {
    "torch.compiler.is_exporting": False, "torch._C._get_tracing_state": None,
    "torch.fx._symbolic_trace.is_fx_tracing": False, "torch.fx._symbolic_trace.is_fx_symbolic_tracing": False,
    "torch.onnx.is_in_onnx_export": False, "torch.jit.is_tracing": False, "torch.jit.is_scripting": False,
}
COMPILERS = frozenset({"torch.compile", "torch.compiler.compile", "torch._dynamo.optimize"})
# Higher-order ops whose function arguments Dynamo traces as subgraphs.
CONTROL_FLOW = {
    "torch.cond": "cond", "torch._higher_order_ops.cond.cond": "cond", "torch._higher_order_ops.cond": "cond",
    "functorch.experimental.control_flow.cond": "cond", "torch._higher_order_ops.map.map": "map",
    "functorch.experimental.control_flow.map": "map",
}
# Dynamo's `constant_fold_functions` (variables/torch.py), the functions its handlers answer as
# constants (grad mode, `is_tensor`, `has_torch_function`) and the TensorVariable methods it answers
# from the example value: a Python constant at trace time, no graph node, nothing to break on.
CONSTANT_FOLD = {
    "torch.is_floating_point": "bool", "torch.is_complex": "bool", "torch.is_autocast_enabled": "bool",
    "torch.is_autocast_cpu_enabled": "bool", "torch.is_autocast_cache_enabled": "bool",
    "torch.cuda.is_available": "bool", "torch.distributed.is_available": "bool",
    "torch.distributed.is_initialized": "bool", "torch.distributed.get_rank": "int",
    "torch.distributed.get_world_size": "int", "torch.get_default_dtype": None, "torch.promote_types": None,
    "torch.accelerator.is_available": "bool", "torch._C._is_any_autocast_enabled": "bool",
    "torch.is_grad_enabled": "bool", "torch.is_tensor": "bool",
    "torch.overrides.has_torch_function": "bool", "torch.overrides.has_torch_function_unary": "bool",
    "torch.overrides.has_torch_function_variadic": "bool",
    "Tensor.is_floating_point": "bool", "Tensor.is_complex": "bool", "Tensor.is_contiguous": "bool",
    "Tensor.element_size": "int", "Tensor.get_device": "int",
}
RANK_READS = frozenset({"Tensor.dim", "Tensor.ndimension"})
AUTOCAST_CHECKS = frozenset({"torch.is_autocast_enabled", "torch.is_autocast_cpu_enabled",
                             "torch._C._is_any_autocast_enabled"})
# Dynamo's `handle_has_torch_function`: whether any argument (a tuple of them too) overrides torch functions
TORCH_FUNCTION_CHECKS = frozenset({"torch.overrides.has_torch_function", "torch.overrides.has_torch_function_unary",
                                   "torch.overrides.has_torch_function_variadic", "torch._C._has_torch_function"})
# Library switches read while tracing (Dynamo inlines the getter and guards the module global), with the
# setter that flips them: unless the project calls it, the default holds
LIBRARY_STATE = {"torch.backends.mha.get_fastpath_enabled": ("set_fastpath_enabled", True)}
# torch.nn.functional helpers (inlined by Dynamo; their source is not read) that return None for a None
# argument, and that argument's name (first positional)
NONE_IN_NONE_OUT = {"torch.nn.functional._canonical_mask": "mask", "torch.nn.functional._none_or_dtype": "input"}
# Tensor methods that break the graph and hand the resume function a Python number.
SCALAR_READS = {"item": "float"}
DATA_PTR = "<data_ptr>"  # the ref of a DataPtrVariable (`t.data_ptr()`)



# torch.nn.utils functions that add a hook or a parametrization to a module and return it.
WRAPS_MODULE = frozenset({f"torch.nn.utils.{n}" for n in (
    "spectral_norm", "weight_norm", "remove_spectral_norm", "remove_weight_norm", "parametrizations.spectral_norm",
    "parametrizations.weight_norm", "parametrizations.orthogonal", "parametrize.register_parametrization")})

# The math module's functions Dynamo constant-folds on constant arguments, and its constants.
MATH_FUNCTIONS = {f"math.{n}": getattr(math, n) for n in (
    "cos", "sin", "tan", "acos", "asin", "atan", "atan2", "cosh", "sinh", "tanh", "exp", "expm1", "log", "log2",
    "log10", "log1p", "sqrt", "pow", "floor", "ceil", "trunc", "fabs", "hypot", "isqrt", "gcd", "radians",
    "degrees", "isinf", "isnan", "isfinite", "copysign", "fmod", "prod", "lcm", "comb", "perm", "factorial")}
_INT_MATH = frozenset({"math.floor", "math.ceil", "math.trunc", "math.isqrt", "math.gcd", "math.lcm", "math.comb",
                       "math.perm", "math.factorial"})
MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf}


PARTIAL = "functools.partial"


def partial_of(func: Value, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """`functools.partial(nn.LayerNorm, eps=1e-6)`: the function and the arguments it binds."""
    keywords = Value(V.DICT, keys=list(kwargs), items=list(kwargs.values()))
    return Value(V.LIB, ref=PARTIAL, items=list(args), attrs={"func": func, "keywords": keywords})


# Standard-library functions Dynamo inlines from their source, guarding their defaults there: each
# one's positional defaults and keyword-only ones, as its `def` has them.
INLINED_WITH_DEFAULTS: dict[str, tuple[tuple[object, ...], dict[str, object]]] = {
    "copy.deepcopy": ((None, []), {}),
    "inspect.signature": ((), {"follow_wrapped": True, "globals": None, "locals": None, "eval_str": False}),
}


class LibraryVariable(Value):
    tracks = (V.LIB,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        if f"{self.ref}.{name}" in PARSERS:  # yaml.safe_load: modelled, not read from the package
            return Value(V.LIB, ref=f"{self.ref}.{name}")
        method = tx.objects.method_of(self.ref, name) if self.ref and is_torch_nn_class(self.ref) else None
        if method is not None:  # `nn.LayerNorm.forward(self, x)`: the function torch.nn's class defines
            return Value(V.FUNC, ref=method)
        if self.ref and tx.project.split(self.ref):  # a package read from disk: its own value
            return tx.dotted_value(f"{self.ref}.{name}", None)
        if self.ref == "math" and name in MATH_CONSTANTS:  # `math.pi`: a float, guarded where used
            return V.const(MATH_CONSTANTS[name]).with_(source=None if tx.eager else attr_source(self.source, name))
        if self.ref == "torch" and name in DTYPE_NAMES:
            # `torch.float16`: guarded where used (EQUALS_MATCH); a fact of little news, so predicted
            # only on the paths the walk knows run
            return Value(V.LIB, ref=f"torch.{name}", source=None if tx.uncertain else attr_source(self.source, name))
        if f"{self.ref}.{name}" in INLINED_WITH_DEFAULTS:  # its defaults are guarded where it is inlined
            return Value(V.LIB, ref=f"{self.ref}.{name}", source=None if tx.eager else attr_source(self.source, name))
        return Value(V.LIB, ref=f"{self.ref}.{name}")

    def call_function(self, tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act,
                      node: cst.Call) -> Value:
        if not self.ref:
            return V.unknown()
        if self.ref == PARTIAL and "func" in self.attrs:
            # Dynamo's FunctoolsPartialVariable: the function called with the bound arguments first
            bound = self.attrs.get("keywords")
            keywords = dict(zip(bound.keys or [], bound.items or [], strict=False)) if bound is not None else {}
            return tx.call(self.attrs["func"], [*(self.items or []), *args], {**keywords, **kwargs}, act, node)
        receiver = self.bound_self
        if receiver is not None:
            done = receiver.call_method(tx, self.ref.rpartition(".")[2], args, kwargs, act, node)
            if done is not None:
                return done
        if is_torch_nn_class(self.ref) or (self.ref in MODULE_CLASS and not args and not kwargs):
            # (`stage = nn.Module()`: a bare module that holds the submodules set on it next)
            return tx.construct_module(self.ref, args, kwargs, act, node)
        if self.ref in PARSER_CLASSES and tx.eager:
            return new_parser()
        if self.ref in DATASETS and tx.eager:
            return dataset(args)
        if self.ref in LOADERS and tx.eager:
            return loader(tx, args, kwargs, act, node)
        return call_library(tx, self, args, kwargs, act, node)


def call_library(tx: Walker, func: Value, args: list[Value], kwargs: dict[str, Value], act: Act,
                 node: cst.Call) -> Value:
    """A call outside the project, decided by trace_rules: a graph node, an inlined function, a
    graph break (its resume frame gets the result), or an opaque value."""
    name = func.ref or ""
    receiver = func.bound_self
    if name in COMPILING_CHECKS:
        return V.const(not tx.eager)  # Dynamo answers True while it traces (a constant, no guard)
    if name.startswith(f"{OPTIMIZER_BASE}.") and receiver is not None:
        return call_base(tx, name, receiver, args, kwargs, act, node)
    if name in TRACING_STATE:
        return V.const(TRACING_STATE[name])
    if name in ("torch.is_tensor", "torch.is_floating_point") and args and args[0].kind == V.TENSOR \
            and (name == "torch.is_tensor" or args[0].pytype):
        return V.const(name == "torch.is_tensor" or bool(is_floating(args[0].pytype)))
    if name == "torch.is_tensor" and args and args[0].kind in (V.CONST, V.LIST, V.TUPLE, V.DICT):
        return V.const(False)  # a Python value's type is guarded already: the answer is a constant
    if name == "torch.is_grad_enabled" and tx.grad_enabled is not None:
        return V.const(tx.grad_enabled)  # the grad mode the frame is traced in: a constant, guarded by GLOBAL_STATE
    if name in AUTOCAST_CHECKS and tx.autocast == "":
        return V.const(False)  # traced outside any autocast region: Dynamo folds it (GLOBAL_STATE guards it)
    if name in TORCH_FUNCTION_CHECKS and (flat := _flattened(args)) is not None \
            and all(v.kind == V.TENSOR or (v.kind == V.CONST and v.known) for v in flat):
        return V.const(False)  # plain tensors and constants: no `__torch_function__` override to dispatch to
    if name in NONE_IN_NONE_OUT and _argument(args, kwargs, NONE_IN_NONE_OUT[name]) is None:
        # `F._canonical_mask(mask=None, ...)`: inlined by Dynamo, its `if mask is not None` guards the
        # None (NONE_MATCH on a default it was passed) and it returns None
        tx.use(kwargs.get(NONE_IN_NONE_OUT[name]) or args[0], act, node)
        return V.const(None)
    if name in LIBRARY_STATE and not tx.project.mentions(LIBRARY_STATE[name][0]):
        return V.const(LIBRARY_STATE[name][1])  # a library switch the project never flips: its default
    if name in RANK_READS and receiver is not None and receiver.kind == V.TENSOR and receiver.items is not None:
        return V.const(len(receiver.items))  # the rank of the example value: static, TENSOR_MATCH checks it
    if name == environment.ENVIRON_GET and not tx.eager:
        # Mapping.get's `self[key]` (the standard library's, not reported) inlines os.environ's own
        tx.emit(Action.INLINE, act, node, callee="os._Environ.__getitem__", variable_tracker=V.FUNC,
                detail={"qualname": "_Environ.__getitem__"})
    if (machine := environment.answered(name, args, kwargs)) is not None:
        return machine
    if name in CONSTANT_FOLD:
        return Value(V.CONST, pytype=CONSTANT_FOLD[name], confidence="medium")
    if name in CONTROL_FLOW and not tx.eager:
        return tx.control_flow(CONTROL_FLOW[name], args, act, node)
    if tx.eager and name in COMPILERS:
        return _compile(tx, func, args, kwargs, act, node)
    if tx.eager and name == "functools.partial" and args and args[0].kind == V.LIB and args[0].ref in COMPILERS:
        return args[0].with_(attrs={**args[0].attrs, **kwargs})  # partial(torch.compile, mode=...): a compiler
    if name == "functools.partial" and args and args[0].kind != V.UNKNOWN:
        return partial_of(args[0], args[1:], kwargs)
    if name in MARKS and tx.eager:
        return mark(MARKS[name], args)
    if tx.eager and name == "importlib.import_module" and args:
        return _imported(tx, args[0], kwargs.get("package") or (args[1] if len(args) > 1 else V.const(None)))
    if tx.eager and name == "importlib.util.find_spec" and args and args[0].known and isinstance(args[0].value, str):
        found = tx.project.installed(args[0].value)  # an optional dependency's check: the installed packages say
        return V.unknown() if found is None else Value(V.OBJECT, pytype=MODULE_SPEC) if found else V.const(None)
    if name == "dataclasses.fields" and len(args) == 1 and not kwargs:
        return _dataclass_fields(tx, args[0])
    if tx.eager and name in ("importlib.metadata.version", "importlib_metadata.version") and len(args) == 1 \
            and args[0].known and isinstance(args[0].value, str):
        found = tx.project.installed_version(args[0].value)  # the installed distribution's metadata
        return V.const(found) if found is not None else V.unknown()
    if tx.eager and name == "inspect.get_annotations" and len(args) == 1 and not kwargs:
        return _annotations(tx, args[0])
    if tx.eager and name == "sys.modules.get" and args:
        return _imported(tx, args[0], V.const(None))  # `sys.modules.get(cls.__module__)`: the module, imported
    if tx.eager and name == "inspect.getsource" and args:
        return _source_of(tx, args[0])
    if name == "collections.OrderedDict":
        return dict_of(args, kwargs)
    if name == "dict.__init__" and receiver is not None and receiver.kind == V.OBJECT:
        fill_dict_storage(receiver, args, kwargs)  # a dict subclass's `super().__init__(mapping)`
        return V.const(None)
    if name == "itertools.repeat" and len(args) == 2 and args[1].known and isinstance(args[1].value, int) \
            and 0 <= args[1].value <= MAX_REPEAT:
        # `tuple(repeat(x, n))` (torch.nn's `_pair(3)`: Conv2d's stride, padding, dilation): n copies of x
        return Value(V.LIST, items=[args[0]] * args[1].value)
    if name == "inspect.signature" and args and args[0].kind == V.FUNC:
        return _signature(tx, func, args[0], act, node)
    if not tx.eager and name == "copy.deepcopy" and args and args[0].kind == V.OBJECT and args[0].source is not None \
            and not args[0].opaque:
        return _deepcopy_traced(tx, func, args[0], act, node)
    if tx.eager and name in ("copy.deepcopy", "copy.copy") and args:
        # `reference = copy.deepcopy(policy)`: another object, which later changes of the first do not
        # reach (a shallow copy shares what the first holds)
        return V.snapshot(args[0], depth=64 if name == "copy.deepcopy" else 1).with_(source=None)
    if name == "Tensor.size" and receiver is not None and receiver.kind == V.TENSOR \
            and (sizes := known_sizes(receiver, tx)) is not None:
        return _size_call(sizes, args)
    if name.startswith("str.") and receiver is not None and receiver.known and isinstance(receiver.value, str):
        return _str_method(tx, name.removeprefix("str."), receiver, args, kwargs, act, node)
    if tx.eager and name == "dataclasses.replace" and args and args[0].kind == V.OBJECT and args[0].ref:
        return _replaced(tx, args[0], kwargs)
    if tx.eager and name in EAGER_RANDOM:
        # the script's own random numbers (a chunk size drawn per step): another one at every call
        picked = args[0].items if name.endswith(".choice") and args and args[0].items else None
        types = {i.pytype for i in picked} if picked else {EAGER_RANDOM[name]}
        return V.datum(types.pop() if len(types) == 1 else "number")
    if breaks.is_replayed_random(name) and not tx.eager:
        for value in args:
            tx.use(value, act, node)
        # replayed while tracing: a graph input, a tensor underneath (UnspecializedPythonVariable)
        return Value(V.CONST, pytype="float" if name == "random.uniform" else "int",
                     attrs={UNSPECIALIZED: V.const(True)})
    if name in MATH_FUNCTIONS and args and all(a.kind == V.CONST for a in args) and not kwargs:
        for value in args:
            tx.use(value, act, node)
        if all(a.known for a in args):
            return V.compute(MATH_FUNCTIONS[name], *[a.value for a in args])  # Dynamo folds it to a constant
        # a Python number of a value the walk does not know: still folded, no graph op
        return Value(V.CONST, pytype="int" if name in _INT_MATH else "float", origins=V.origins(*args))
    if name in breaks.PARAMETERS and tx.eager:  # nn.Parameter(data, requires_grad=True): a leaf tensor that needs grad
        if tx.building is not None:  # in a constructor the traced frame calls: what Dynamo decides there
            decided = breaks.decide_function(name, tx.settings, arguments=arguments_of(tx, args, kwargs))
            if decided.breaks:
                tx.graph_break(act, node, decided, name)
        wanted = kwargs.get("requires_grad") or (args[1] if len(args) > 1 else V.const(True))
        made = tensor(args[0].items if args else None, args[0].pytype if args else None, wanted)
        made.attrs["parameter"] = V.const(True)
        return made
    if tx.eager and name == "Tensor.requires_grad_" and receiver is not None and receiver.kind == V.TENSOR:
        receiver.attrs["requires_grad"] = args[0] if args else kwargs.get("requires_grad", V.const(True))
        return receiver
    if tx.eager and name in WRAPS_MODULE and args and args[0].kind == V.NN_MODULE:
        return args[0]  # the same module, with a hook or a parametrization added
    if tx.eager and name in PARSERS and args and (text := data_files.text_of(args[0])) is not None:
        return parse_config_text(name, text)
    if tx.eager and name in data_files.FUNCTIONS:
        return data_files.call(tx, name, args)
    if tx.eager and name == "Tensor.tolist" and receiver is not None and receiver.kind == V.TENSOR:
        elements = values_of(receiver)
        if elements is not None:  # `timesteps.tolist()` of a schedule eager code computed: the numbers
            return Value(V.LIST, items=[V.const(e) for e in elements])
        # Python numbers, as many as the tensor holds: a loop over them passes a new one each time
        number = "float" if is_floating(receiver.pytype) else \
            "int" if (receiver.pytype or "").startswith(("int", "uint")) else "number"
        return Value(V.LIST, attrs={"element": Value(V.CONST, pytype=number, confidence="medium")})
    if name == "torch.where" and len(args) == 1 and not kwargs:  # the condition alone: nonzero
        decision = breaks.decide_where_of_condition(tx.settings)
    elif receiver is not None and NDARRAY in receiver.attrs and name.rpartition(".")[2] == "astype" \
            and _is_object_dtype(kwargs.get("dtype") or (args[0] if args else None)):
        decision = breaks.decide_ndarray_astype_object()
    elif receiver is not None and receiver.kind == V.TENSOR:
        flag = receiver.attrs.get("requires_grad")
        decision = breaks.decide_tensor_method(name.removeprefix("Tensor."), tx.settings,
                                               arguments_of(tx, args, kwargs), receiver.pytype,
                                               sourced=receiver.source is not None,
                                               requires_grad=flag.value if flag is not None and flag.known else None)
    else:  # eager code makes what it calls (`torch.randn(3, requires_grad=True)`): only the name decides
        tensors = any(a.kind == V.TENSOR for a in [*args, *kwargs.values()])
        decision = breaks.decide_function(name, tx.settings, tensor_args=tensors,
                                          arguments=None if tx.eager else arguments_of(tx, args, kwargs))
    if decision.action == "graph-break" and tx.eager and tx.building is not None:
        tx.graph_break(act, node, decision, name)  # a constructor the traced frame calls: the frame breaks
    if decision.action == "graph-break" and tx.eager and (made := data_dependent(name, receiver, args)) is not None:
        return made  # eager code: the indices the data picks, of a size only it knows
    if decision.action == "graph-break" and tx.eager and name.rpartition(".")[2] in SCALAR_READS:
        return V.datum(SCALAR_READS[name.rpartition(".")[2]])  # eager `.item()`: a number read from data
    if decision.action == "graph-break" and tx.eager:
        return instance_of(name, receiver)  # the script just calls it: an object of its type (`random.Random()`)
    if decision.action == "graph-break":
        for value in args + list(kwargs.values()):
            tx.use(value, act, node)
        frame = tx.frame
        tx.graph_break(act, node, decision, name)
        if tx.frame is not frame and (made := data_dependent(name, receiver, args)) is not None:
            # the op ran eagerly; the resume function receives its result on the stack: a tensor input
            # of the size the data gave (`for expert_idx in expert_hit` then goes over its rows)
            stacked = LocalSource(f"___stack{tx.stack_depth}")
            return made.with_(source=stacked) if made.kind == V.TENSOR else made
        if tx.frame is not frame and name.rpartition(".")[2] in SCALAR_READS:
            # the call ran eagerly before the resume function, which receives its result on the
            # stack: a Python number Dynamo guards there by value (`___stack0 == 1.96`)
            return Value(V.CONST, source=LocalSource(f"___stack{tx.stack_depth}"),
                         pytype=SCALAR_READS[name.rpartition(".")[2]],
                         confidence="medium")
        if tx.frame is not frame:
            return instance_of(name, receiver)  # made eagerly: `logging.getLogger(name)` is still a Logger
        return V.unknown()
    if decision.action == "inline":
        if tx.project.function(name) is not None:
            return tx.call_user(Value(V.FUNC, ref=name), args, kwargs, act, node)
        if not _torch_function(name):
            return instance_of(name, receiver)
        if tx.eager:  # run, not traced: a tensor whose sizes the op gives (F.linear, F.embedding), else unknown
            made = created(name, args, kwargs, receiver)
            return made if made.kind == V.TENSOR and made.items is not None else instance_of(name, receiver)
        # a function of torch's own Python (F.silu, clip_grad_norm_), whose source the walk does not
        # read: Dynamo inlines it, and it ends in graph ops on these arguments
    in_graph = decision.action in ("graph-node", "inline")
    for value in args + list(kwargs.values()):
        tx.use(value, act, node)
        if value.kind in (V.LIST, V.TUPLE):
            tx.length_check(value, act, node)
            known = value.attrs.get(V.PARTS)  # of a sequence whose length is not known
            # an op's int-list argument is a constant: each item guarded (a module's tuple of literals
            # is one value, realized whole, its items without a Source)
            for element in value.unpack_var_sequence(tx, act, node) or (known.items if known else None) or []:
                tx.use(element, act, node)
    if in_graph and name.endswith(SIZE_READS):
        return size_of_tensor()  # static shapes: a constant of the TENSOR_MATCH, no graph node
    if in_graph:
        tx.frame.graph_ops += 1
        for value in [*args, *kwargs.values()]:
            if value.kind == V.CONST and value.pytype == "float":
                # a float handed to an op as a Python scalar (`alpha=-lr`, F.dropout's `p`): the
                # compiler specializes it, so each new value recompiles (measured under Inductor)
                tx.frame.specialized.update(V.origins(value))
        if name == "Tensor.register_hook" and not tx.eager:
            return Value(V.OBJECT, ref=breaks.REMOVABLE_HANDLE)  # Dynamo's RemovableHandleVariable
        if name in breaks.PROFILERS:
            return Value(V.OBJECT, ref=name)  # a context manager, not a tensor
        result = created(name, args, kwargs, receiver)
        if tx.eager and result.kind == V.TENSOR and "requires_grad" not in result.attrs:
            flag = grad_of([receiver, *args, *kwargs.values()], tx.grad_enabled)
            if flag is not None:
                result.attrs["requires_grad"] = flag
        return result
    if decision.variable_tracker == "DataPtrVariable":
        return Value(V.UNKNOWN, ref=DATA_PTR, confidence="medium")
    return instance_of(name, receiver)


def _torch_function(name: str) -> bool:
    """`torch.nn.functional.silu`, `torch.nn.utils.clip_grad_norm_`: a function (not a class) of torch."""
    last = name.rpartition(".")[2]
    return name.startswith("torch.") and not last[:1].isupper()


# `random`'s functions in the script, and the type of number each returns
EAGER_RANDOM = {f"{owner}.{name}": kind for owner in ("random", "random.Random") for name, kind in (
    ("randint", "int"), ("randrange", "int"), ("random", "float"), ("uniform", "float"), ("gauss", "float"),
    ("choice", "number"))}
UNSPECIALIZED = "unspecialized"  # attrs flag of a Python number Dynamo keeps as a graph input (a tensor)

# Tensor metadata read as Python ints (`x.size(1)`, `x.dim()`, `x.numel()`)
SIZE_READS = (".size", ".dim", ".numel", ".ndimension", ".nelement")


def _size_call(sizes: list[Value], args: list[Value]) -> Value:
    """`x.size()` / `x.size(1)` on a tensor whose sizes the walk knows."""
    if not args:
        return Value(V.TUPLE, items=list(sizes))
    if args[0].known and isinstance(args[0].value, int) and -len(sizes) <= args[0].value < len(sizes):
        return sizes[args[0].value]
    return Value(V.CONST, pytype="int")


_SPLITS = frozenset({"split", "rsplit", "splitlines"})  # str methods that answer a list


def _str_method(tx: Walker, method: str, text: Value, args: list[Value], kwargs: dict[str, Value], act: Act,
                node: cst.Call) -> Value:
    """`"c_attn,c_proj".split(",")` on a known string: the result, as Dynamo folds it (the string's
    guard is installed where it is used)."""
    tx.use(text, act, node)
    values = [*args, *kwargs.values()]
    if not all(v.kind == V.CONST and v.known for v in values) and not (
            method == "join" and args and args[0].items is not None and all(i.known for i in args[0].items)):
        return V.unknown()
    parts = [[i.value for i in args[0].items or []]] if method == "join" else [a.value for a in args]
    try:
        result = checked(getattr(str, method), text.value, *parts, **{k: v.value for k, v in kwargs.items()})
    except (TypeError, ValueError):
        return V.unknown()  # what Python raises here, the walk does not model
    except TooLarge:  # `s.replace("a", "a" * 100)` over and over; `t.split(",")` into 200,000 parts
        return V.too_large(None, ITEMS, kind=V.LIST) if method in _SPLITS else V.too_large("str", described(""))
    if isinstance(result, list | tuple):
        if not tx.allowance.take(len(result)):
            return V.too_large(None, ITEMS, kind=V.LIST)
        return Value(V.LIST if isinstance(result, list) else V.TUPLE, items=[V.const(r) for r in result])
    return V.const(result)


def _imported(tx: Walker, name: Value, package: Value) -> Value:
    """`importlib.import_module(".mixtral", "transformers.models")` run eagerly (transformers' lazy
    config and model mappings): the module, read from disk like any imported one."""
    if not (name.known and isinstance(name.value, str) and package.known):
        return V.unknown()
    wanted = name.value
    if wanted.startswith("."):
        if not isinstance(package.value, str):
            return V.unknown()
        levels = len(wanted) - len(wanted.lstrip("."))
        base = package.value.split(".")
        base = base[: len(base) - (levels - 1)] if levels > 1 else base
        wanted = ".".join([*base, wanted.lstrip(".")] if wanted.lstrip(".") else base)
    found = tx.project.split(wanted)
    return Value(V.LIB, ref=wanted) if found is not None and not found[1] else V.unknown()


def _dataclass_fields(tx: Walker, value: Value) -> Value:
    """`dataclasses.fields(self)` of a dataclass of the project: its fields in order, each a `Field` with
    its `name` and `default` (`MISSING` where it has none), as a `ModelOutput.__post_init__` reads them."""
    found = tx.project.klass(value.ref or "") if value.kind in (V.OBJECT, V.CLASS) else None
    if found is None or not is_dataclass_like(tx.project, *found):
        return V.unknown()
    missing = Value(V.LIB, ref="dataclasses.MISSING")
    made = []
    for name in field_names(tx.project, *found):
        default = next((tx.materialize(klass.class_attrs[name], mod, None, None)
                        for mod, klass in tx.project.mro(*found) if name in klass.class_attrs), missing)
        made.append(Value(V.NAMESPACE, attrs={"name": V.const(name), "default": default,
                                               "default_factory": missing}))
    return Value(V.TUPLE, items=made)


def _annotations(tx: Walker, value: Value) -> Value:
    """`inspect.get_annotations(cls)` run eagerly (transformers' `config: LlamaConfig` decides a model's
    `config_class`): the class body's own annotations, evaluated in its module (strings under
    `from __future__ import annotations`)."""
    from vtlint.analyzer.walk import MODULE_FRAME, Act  # the walk imports this module

    found = tx.project.klass(value.ref or "") if value.kind == V.CLASS else None
    parsed = tx.project.parsed(found[0].display) if found is not None else None
    node = parsed.classes.get(found[1].qualname) if parsed is not None and found is not None else None
    if parsed is None or node is None or not isinstance(node.body, cst.IndentedBlock):
        return V.unknown()
    deferred = parsed.summary.imports.get("annotations") == "__future__.annotations"
    act = Act(parsed, MODULE_FRAME, dict(tx.module_envs.get(parsed.summary.display, {})))
    names, found_types = [], []
    for stmt in node.body.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                names.append(small.target.value)
                written = small.annotation.annotation
                found_types.append(V.const(parsed.module.code_for_node(written)) if deferred
                                   else tx.expr(written, act))
    return Value(V.DICT, keys=names, items=found_types)


def _source_of(tx: Walker, value: Value) -> Value:
    """`inspect.getsource(module)` run eagerly (transformers reads a model's module for a decorator's name to
    decide what it may set): the module's text, as the walk read it from disk."""
    found = tx.project.split(value.ref or "") if value.kind == V.LIB else None
    if found is None or found[1]:
        return Value(V.CONST, pytype="str", confidence="medium")
    text = tx.project.texts.get(found[0].display)
    return V.const(text) if text is not None and fits(text) else Value(V.CONST, pytype="str", confidence="medium")


def _replaced(tx: Walker, instance: Value, changes: dict[str, Value]) -> Value:
    """`dataclasses.replace(cfg, max_seq_len=48)`: a new instance built from the fields of `cfg`
    with the changes (its `__post_init__` runs again)."""
    found = tx.project.klass(instance.ref or "")
    if found is None:
        return V.unknown()
    fields = {name: instance.attrs[name] for name in field_names(tx.project, *found) if name in instance.attrs}
    return tx.objects.instantiate(instance.ref or "", [], {**fields, **changes}, None)


def _compile(tx: Walker, compiler: Value, args: list[Value], kwargs: dict[str, Value], act: Act,
             node: cst.Call) -> Value:
    """`torch.compile(fn, **options)` returns fn compiled (its calls are recorded); `torch.compile(**options)`,
    `torch._dynamo.optimize(backend)` and `functools.partial(torch.compile, ...)` return a compiler,
    which compiles what it is called with."""
    options = {**compiler.attrs, **kwargs}
    if compiler.ref == "torch._dynamo.optimize" and not compiler.attrs.get("_made"):
        if args:
            options["backend"] = args[0]
        return Value(V.LIB, ref="torch.compile", attrs={**options, "_made": V.const(True)})
    if not args:
        return Value(V.LIB, ref=compiler.ref, attrs=options)
    # a module compiled whole comes back wrapped (an OptimizedModule sharing its state): calling the
    # wrapper runs compiled code, calling the module itself still runs eagerly
    target = args[0].with_() if args[0].kind == V.NN_MODULE else args[0]
    tx.compiles(target, {k: v for k, v in options.items() if k != "_made"}, act, node)
    return target


def instance_of(name: str, receiver: Value | None) -> Value:
    """What a library call returns: an object of a known type (`logging.getLogger(...)`), a numpy
    value (remembered as one: its methods are not a tensor's), or unknown."""
    instance = breaks.instance_type(name) if receiver is None else None
    if instance:
        return Value(V.UNKNOWN, ref=name, pytype=instance, confidence="low")
    return Value(V.UNKNOWN, ref=name, confidence="low") if name.startswith("numpy.") else V.unknown()


MAX_REPEAT = 64  # `itertools.repeat(x, n)` unrolled up to n items


MODULE_SPEC = "importlib.machinery.ModuleSpec"  # what `find_spec` returns for a module it finds
MODULE_CLASS = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})


def is_torch_nn_class(ref: str) -> bool:
    """`torch.nn.Linear`, `torch.nn.modules.linear.Linear`: a built-in module class (not a function
    such as `torch.nn.functional.relu`, nor Parameter/Buffer, which are tensors)."""
    name = ref.rpartition(".")[2]
    return (ref.startswith("torch.nn.") and not ref.startswith(("torch.nn.functional.", "torch.nn.init."))
            and name[:1].isupper() and name not in ("Parameter", "Buffer", "Module"))


def _flattened(args: list[Value]) -> list[Value] | None:
    """The arguments with tuples and lists opened (`has_torch_function((src, weight, bias))`)."""
    out: list[Value] = []
    for value in args:
        if value.kind in (V.TUPLE, V.LIST):
            if value.items is None:
                return None
            out += value.items
        else:
            out.append(value)
    return out


def _argument(args: list[Value], kwargs: dict[str, Value], name: str) -> Any:
    """The known value of the first positional argument (or keyword `name`); `...` when not known."""
    given = kwargs.get(name) or (args[0] if args else None)
    return given.value if given is not None and given.kind == V.CONST and given.known else ...


def _deepcopy_traced(tx: Walker, func: Value, target: Value, act: Act, node: cst.Call) -> Value:
    """`copy.deepcopy(config)` in traced code: Dynamo inlines `copy.deepcopy`, whose `_reconstruct`
    deep-copies the object's `__dict__`, every value of it specialized (a config's every field is
    then guarded, `L['self'].config.d_model == 64`, dict fields key by key). The copy is a new object."""
    tx.emit(Action.INLINE, act, node, callee="copy.deepcopy", variable_tracker=V.FUNC,
            detail={"qualname": "deepcopy"})
    _inlined_defaults(tx, func, act, node)
    assert target.source is not None
    _copied_fields(tx, target, target.source, act, node, depth=4)
    return V.snapshot(target, depth=64).with_(source=None)


def _signature(tx: Walker, func: Value, target: Value, act: Act, node: cst.Call) -> Value:
    """`inspect.signature(fn)` in traced code: Dynamo inlines it (its keyword-only defaults guarded
    at the call); its `parameters` are the function's, a bound method's first left out, so
    `len(inspect.signature(fn).parameters)` is a constant."""
    found = tx.function_node(target)
    if found is None:
        return V.unknown()
    if tx.eager:  # diffusers' `register_to_config` reads each parameter's name and default
        return _parameters(tx, found[0], found[1], target)
    tx.emit(Action.INLINE, act, node, callee="inspect.signature", variable_tracker=V.FUNC,
            detail={"qualname": "signature"})
    _inlined_defaults(tx, func, act, node)
    params = found[1].params
    if target.source is not None:  # `_signature_from_function` tests `if defaults:`, the function's own
        # a method is its class's one function, however many instances reach it: guarded once, through
        # the first Source that did
        held = tx.class_attr_sources.setdefault((target.ref or "", "function", "__defaults__"),
                                                AttrSource(target.source, "__defaults__"))
        defaults = [p for p in (*params.posonly_params, *params.params) if p.default is not None]
        if defaults:
            tx.length_check(Value(V.TUPLE, items=[V.unknown() for _ in defaults], source=held), act, node)
        else:
            tx.use_unseen(V.const(None).with_(source=held), target.source, act, node)
    names = [p.name.value for p in (*params.posonly_params, *params.params)]
    names += [star.name.value for star in (params.star_arg,) if isinstance(star, cst.Param)]
    names += [p.name.value for p in params.kwonly_params]
    names += [star.name.value for star in (params.star_kwarg,) if isinstance(star, cst.Param)]
    if target.bound_self is not None:
        names = names[1:]
    parameters = Value(V.DICT, keys=names, items=[V.unknown() for _ in names])
    return Value(V.NAMESPACE, attrs={"parameters": parameters})


def _parameters(tx: Walker, parsed: Parsed, fn: cst.FunctionDef | cst.Lambda, target: Value) -> Value:
    """`inspect.signature(fn)` run eagerly: its `parameters`, in order, each with its `name`, `kind` and
    `default` (the value the def computed; `inspect.Parameter.empty` where there is none)."""
    params = fn.params
    kinds = [*((p, "POSITIONAL_ONLY") for p in params.posonly_params),
             *((p, "POSITIONAL_OR_KEYWORD") for p in params.params),
             *((p, "VAR_POSITIONAL") for p in (params.star_arg,) if isinstance(p, cst.Param)),
             *((p, "KEYWORD_ONLY") for p in params.kwonly_params),
             *((p, "VAR_KEYWORD") for p in (params.star_kwarg,) if isinstance(p, cst.Param))]
    if target.bound_self is not None:
        kinds = kinds[1:]
    empty = Value(V.CLASS, ref="inspect.Parameter.empty")
    made = [Value(V.NAMESPACE, attrs={"name": V.const(p.name.value), "kind": V.const(kind),
                                      "default": tx.default_value(p.default, parsed) if p.default is not None else empty})
            for p, kind in kinds]
    parameters = Value(V.DICT, keys=[p.name.value for p, _ in kinds], items=made)
    return Value(V.NAMESPACE, attrs={"parameters": parameters})


def _inlined_defaults(tx: Walker, func: Value, act: Act, node: cst.Call) -> None:
    """The defaults of a library function Dynamo inlines: the tuple's length, then each by value
    (`G['copy'].deepcopy.__defaults__[0] is None`; a list default by its length), and its keyword-only
    ones by name (`G['inspect'].signature.__kwdefaults__['eval_str'] == False`)."""
    defaults, kwdefaults = INLINED_WITH_DEFAULTS.get(func.ref or "", ((), {}))
    holder = attr_source(func.source, "__defaults__")
    if holder is None:
        return
    values = [Value(V.LIST, items=[V.const(i) for i in d]) if isinstance(d, list) else V.const(d) for d in defaults]
    if values:
        tx.length_check(Value(V.TUPLE, items=values, source=holder), act, node)
    for index, value in enumerate(values):
        held = value.with_(source=item_source(holder, index))
        if held.kind == V.LIST:
            tx.length_check(held, act, node)
        else:
            tx.use(held, act, node)
    named = attr_source(func.source, "__kwdefaults__")
    for key, default in kwdefaults.items():
        tx.use(V.const(default).with_(source=item_source(named, key)), act, node)


def _copied_fields(tx: Walker, value: Value, owner: Source, act: Act, node: cst.Call, depth: int) -> None:
    """Each field of an object `copy.deepcopy` walks (its `__dict__`), guarded by value; a dict field
    by its key order, then value by value; an object field field by field."""
    for field, item in value.attrs.items():
        source = attr_source(owner, field)
        if source is None or depth <= 0 or not in_instance_dict(tx.project, value, field):
            continue
        if item.kind == V.OBJECT and not item.opaque:
            _copied_fields(tx, item, source, act, node, depth - 1)
        elif item.kind == V.DICT and item.keys is not None and item.items is not None:
            held = item.with_(source=source)
            tx.use_unseen(held, owner, act, node, tx.builder.key_order(held))
            for key, element in zip(item.keys, item.items, strict=False):
                if element.kind == V.CONST and element.known:
                    tx.use_unseen(element.with_(source=item_source(source, key)), owner, act, node)
        elif item.kind == V.CONST and item.known:
            tx.use_unseen(item.with_(source=source), owner, act, node)


def _is_object_dtype(dtype: Value | None) -> bool:
    """`object` or "O": the dtype ndarray.astype has no tensor for."""
    return dtype is not None and ((dtype.kind == V.BUILTIN and dtype.ref == "object") or
                                  (dtype.kind == V.CONST and dtype.known and dtype.value == "O"))
