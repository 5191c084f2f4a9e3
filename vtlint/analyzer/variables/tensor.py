"""TensorVariable: a graph value. Ops on it are graph nodes; data-dependent Python on it breaks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables.shapes import (
    UNKNOWN_STRIDES,
    arange,
    broadcast,
    concatenated,
    data_dependent_size,
    dims,
    indexed,
    linspace,
    pieces,
    rearranged,
    reduced,
    reshaped,
    stacked,
    values_of,
    with_values,
)

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker

# Tensor attributes that are Python values at trace time, answered from the example value
# (sizes are SymInts or ints): a constant of unknown value to the walk, never a break.
_SCALAR_META = {"ndim": "int", "is_cuda": "bool", "is_cpu": "bool", "is_meta": "bool", "is_nested": "bool",
                "is_sparse": "bool", "is_quantized": "bool", "is_mkldnn": "bool", "is_leaf": "bool",
                "requires_grad": "bool"}
_META = frozenset({"shape", "dtype", "device", "layout", *_SCALAR_META})
_TENSOR_ATTRS = frozenset({"T", "mT", "data", "grad", "real", "imag"})


class TensorVariable(Value):
    tracks = (V.TENSOR,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        if tx.eager and (healthy := self.attrs.get(HEALTHY)) is not None:
            return bool(healthy.value)  # `if not torch.isfinite(grad_norm):` in the script: the healthy path
        decision = breaks.decide_branch(construct, tx.settings)
        if decision.action == "graph-break":
            tx.graph_break(act, node, decision, f"{construct} on a tensor")
        return None

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        if NDARRAY in self.attrs and not tx.eager and act is not None and node is not None \
                and (decision := breaks.decide_ndarray_attribute(name)) is not None:
            tx.graph_break(act, node, decision, f"ndarray.{name}")  # read or called, the break is at this line
            return V.unknown()
        if name == "shape" and (sizes := known_sizes(self, tx)) is not None:
            return Value(V.TUPLE, items=sizes)
        if name == "shape":  # a SizeVariable: ints of the static shape, guarded by the TENSOR_MATCH only
            return Value(V.TUPLE, sample=size_of_tensor())
        if name == "ndim" and self.items is not None:
            return V.const(len(self.items))  # the rank: static, TENSOR_MATCH checks it
        if name in _SCALAR_META:
            return Value(V.CONST, pytype=_SCALAR_META[name], confidence="medium")
        if name == "device":
            return device_of(tx)
        if name in _META:
            return Value(V.UNKNOWN)
        if name in ("T", "mT") and tx.eager:
            return Value(V.TENSOR, items=rearranged(name, self, [], {}), pytype=self.pytype,
                         attrs=dict(UNKNOWN_STRIDES))
        if name in _TENSOR_ATTRS:
            return Value(V.TENSOR)
        return Value(V.LIB, ref=f"Tensor.{name}", bound_self=self)

    def unpack_var_sequence(self, tx: Walker, act: Act, node: cst.CSTNode) -> list[Value] | None:
        """`for s in series` in eager code: one row per index of the first size, when it is known."""
        if not tx.eager or not self.items or not self.items[0].known or not 0 < self.items[0].value <= 64:
            return None
        return [tensor(list(self.items[1:]), self.pytype) for _ in range(self.items[0].value)]

    def getitem(self, tx: Walker, index: Value, act: Act, node: cst.CSTNode) -> Value:
        tx.use(index, act, node)
        if index.kind == V.TENSOR and index.pytype == "bool":
            decision = breaks.decide_boolean_mask(tx.settings)
            if decision.action == "graph-break":
                tx.graph_break(act, node, decision, "boolean mask")  # the indexing runs eagerly
                rest = self.items[len(index.items):] if self.items is not None and index.items is not None else None
                return tensor([data_dependent_size(), *rest] if rest is not None else None, self.pytype)
        if index.kind == V.TENSOR and index.items == [] and (index.pytype or "int64").startswith(("int", "uint")) \
                and not tx.eager:
            decision = breaks.decide_tensor_index(self.kind, tx.settings)
            if decision.breaks:
                tx.graph_break(act, node, decision, "index by a 0-d tensor")  # the indexing runs eagerly
                return Value(V.TENSOR)
        tx.frame.graph_ops += 1
        if tx.eager and self.items:
            return tensor(indexed(self, index), self.pytype)
        return Value(V.TENSOR)


# --- tensor metadata: what a TENSOR_MATCH guard checks (sizes, dtype, requires_grad) -------------
# A TensorVariable made by eager code (a script's `torch.randn(16, 6)`) carries its metadata:
# `items` its sizes (int constants, or unknown), `pytype` its dtype ("float32"), and
# `attrs["requires_grad"]`. A call that passes another size, dtype or requires_grad fails the guard.

DTYPE_NAMES = {
    "float32": "float32", "float": "float32", "float64": "float64", "double": "float64", "float16": "float16",
    "half": "float16", "bfloat16": "bfloat16", "int64": "int64", "long": "int64", "int32": "int32", "int": "int32",
    "int16": "int16", "short": "int16", "int8": "int8", "uint8": "uint8", "bool": "bool",
    "complex64": "complex64", "cfloat": "complex64", "complex128": "complex128",
}
_FLOAT_FACTORIES = frozenset({"torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty"})
# torch._dynamo's marks on a tensor's dimensions, and what they make of a size change.
MARKS = {"torch._dynamo.mark_dynamic": "dynamic", "torch._dynamo.maybe_mark_dynamic": "dynamic",
         "torch._dynamo.decorators.mark_dynamic": "dynamic", "torch._dynamo.mark_static": "static",
         "torch._dynamo.decorators.mark_static": "static", "torch.compiler.mark_dynamic": "dynamic"}
# Elementwise ops, both `torch.exp(x)` and `x.exp()`: the result has the input's sizes.
_ELEMENTWISE = frozenset({"relu", "sigmoid", "tanh", "exp", "log", "abs", "neg", "sqrt", "rsqrt", "square", "clamp",
                          "sin", "cos", "tan", "sinh", "cosh", "atan", "erf", "exp2", "expm1", "log1p", "log2",
                          "log10", "floor", "ceil", "round", "trunc", "sign", "reciprocal", "nan_to_num"})
# Ops whose result has their first argument's sizes (elementwise, along-a-dim normalizations).
_SAME_SHAPE = frozenset({f"{module}.{op}" for module in ("torch", "torch.nn.functional") for op in (
    _ELEMENTWISE | {"softmax", "log_softmax", "gelu", "silu", "dropout", "normalize", "layer_norm", "softplus",
                    "leaky_relu", "elu", "mish", "hardtanh", "relu6"})}) | {
    "torch.randn_like", "torch.rand_like", "torch.zeros_like", "torch.ones_like", "torch.empty_like",
    "torch.full_like"}
# Tensor methods whose result has the receiver's sizes and dtype.
_ELEMENTWISE_METHODS = _ELEMENTWISE | {"clamp_min", "clamp_max", "flip", "sin", "cos", "pow", "mul", "add", "sub",
                                       "div", "masked_fill", "where", "nan_to_num"}
_REDUCTIONS = frozenset({"mean", "sum", "std", "var", "amax", "amin", "prod", "logsumexp"})
_FULL_REDUCTIONS = _REDUCTIONS | {"argmax", "argmin", "max", "min", "norm"}
# Tensor methods that convert to a dtype (`x.half()`), named as the dtype's alias is.
# Methods whose result rearranges the receiver's sizes, and `new_*` factories.
_REARRANGING = frozenset({"t", "transpose", "swapaxes", "swapdims", "permute", "squeeze", "flatten", "expand",
                          "expand_as", "repeat", "unfold"})
_PIECES = frozenset({"chunk", "split", "unbind"})  # methods that cut a tensor into a tuple of pieces
_NEW_FACTORIES = frozenset({"new_zeros", "new_ones", "new_empty", "new_full"})
_CONVERSIONS = {method: DTYPE_NAMES[method] for method in ("float", "double", "half", "bfloat16", "long", "int", "bool")}


SIZE = "tensor_size"  # attrs flag of an int read from a tensor's shape
NDARRAY = "ndarray"  # attrs flag of what `Tensor.numpy()` returns: an ndarray Dynamo traces as a tensor

# torch's device types besides "cpu"; a project places tensors only on those it names somewhere
# (`.to("cuda")`, `--device xpu`, `torch.device("mps")`)
_DEVICE_TYPES = ("cuda", "xpu", "mps", "meta", "hpu", "mtia", "xla", "npu", "privateuseone")
ONE_OF = "one_of"  # attrs entry of a constant whose value is one of a known tuple (a device type)


def device_of(tx: Walker) -> Value:
    """A tensor's `device`: a constant torch.device (Dynamo reads it from the example value, no guard
    of its own) whose `type` is one of the device types the project names."""
    types = ("cpu", *(t for t in _DEVICE_TYPES if tx.project.mentions(t, whole=True)))
    kind = V.const(types[0], confidence="medium") if len(types) == 1 else \
        Value(V.CONST, pytype="str", confidence="medium", attrs={ONE_OF: V.const(types)})
    return Value(V.CONST, pytype="torch.device", confidence="medium", attrs={"type": kind})


def known_sizes(value: Value, tx: Walker) -> list[Value] | None:
    """The sizes `x.shape` / `x.size()` read: in eager code the sizes themselves; in traced code the
    first compile's example value's, ints Dynamo specializes (guarded by TENSOR_MATCH) unless shapes
    are dynamic from the start or marked."""
    if value.items is None:
        return None
    if tx.eager:
        return list(value.items)
    if tx.settings.dynamic is True or "dynamic_dims" in value.attrs:
        return None
    return [Value(V.CONST, value=s.value, pytype="int", confidence="medium", attrs={SIZE: V.const(True)})
            if s.kind == V.CONST and s.known and isinstance(s.value, int) else size_of_tensor() for s in value.items]


def size_of_tensor() -> Value:
    """One size of a tensor in traced code: an int of the static shape (Dynamo specializes sizes 0 and
    1, so a size used as a loop bound makes the loop run)."""
    return Value(V.CONST, pytype="int", attrs={SIZE: V.const(True)})


def dtype_of(value: Value | None) -> str | None:
    """`torch.bfloat16` (a LibraryValue) -> "bfloat16"."""
    if value is None or value.kind != V.LIB or not value.ref or not value.ref.startswith("torch."):
        return None
    return DTYPE_NAMES.get(value.ref.removeprefix("torch."))


def is_floating(dtype: str | None) -> bool | None:
    """Whether a dtype ("bfloat16") is a floating-point one; None when the dtype is not known."""
    return dtype.startswith(("float", "bfloat")) if dtype else None


def tensor(shape: list[Value] | None, dtype: str | None, requires_grad: Value | None = None,
           attrs: dict[str, Value] | None = None) -> Value:
    kept = {"requires_grad": requires_grad} if requires_grad is not None else {}
    return Value(V.TENSOR, items=shape, pytype=dtype, attrs={**kept, **(attrs or {})})


# Numeric health checks, and the answer eager code is taken to get (finite losses, no NaNs): the
# path a run takes but for a rare overflow, which a loss-scale schedule counts on
_HEALTH_CHECKS = {"torch.isfinite": True, "torch.isnan": False, "torch.isinf": False}
HEALTHY = "healthy"


def created(name: str, args: list[Value], kwargs: dict[str, Value], receiver: Value | None) -> Value:
    """The tensor a torch function or Tensor method returns, with the metadata the walk can know."""
    method = name.removeprefix("Tensor.")
    if name in _HEALTH_CHECKS or (receiver is not None and f"torch.{method}" in _HEALTH_CHECKS):
        return tensor((receiver or (args[0] if args else V.unknown())).items, "bool",
                      attrs={HEALTHY: V.const(_HEALTH_CHECKS[name if name in _HEALTH_CHECKS else f"torch.{method}"])})
    if receiver is not None and receiver.kind == V.TENSOR:
        if method in ("all", "any") and HEALTHY in receiver.attrs:
            return tensor([], "bool", attrs={HEALTHY: receiver.attrs[HEALTHY]})
        if method in _CONVERSIONS:
            converted = receiver.with_(pytype=_CONVERSIONS[method], attrs=dict(receiver.attrs), source=None,
                                       read_at=None)
            elements = values_of(receiver)
            if elements is not None and method in ("long", "int"):
                return with_values(converted, [int(v) for v in elements])  # truncated, as torch does
            return converted
        if method == "to" and args and dtype_of(args[0]):
            return receiver.with_(pytype=dtype_of(args[0]), attrs=dict(receiver.attrs), source=None, read_at=None)
        if method == "detach":
            return receiver.with_(attrs={"requires_grad": V.const(False)}, source=None, read_at=None)
        if method == "numpy":
            return tensor(receiver.items, receiver.pytype, attrs={NDARRAY: V.const(True)})
        if method in ("clone", "contiguous", "cpu", "cuda"):
            kept = {k: v for k, v in receiver.attrs.items() if k == "requires_grad"}
            return receiver.with_(attrs=kept, source=None, read_at=None)
        if method == "flip" and (elements := values_of(receiver)) is not None:
            return with_values(tensor(receiver.items, receiver.pytype), elements[::-1])
        if method in _ELEMENTWISE_METHODS:
            return tensor(receiver.items, receiver.pytype)
        if method in ("view", "reshape"):
            return tensor(reshaped(receiver, args), receiver.pytype)
        if method in _FULL_REDUCTIONS and not args and "dim" not in kwargs:  # `x.argmax()`, `x.sum()`: a 0-d tensor
            return tensor([], "int64" if method in ("argmax", "argmin") else receiver.pytype)
        if method in _REDUCTIONS:
            return tensor(reduced(receiver, args, kwargs), receiver.pytype)
        if method == "unsqueeze" and args and receiver.items is not None and args[0].known \
                and isinstance(args[0].value, int):
            at = args[0].value if args[0].value >= 0 else len(receiver.items) + 1 + args[0].value
            return tensor([*receiver.items[:at], V.const(1), *receiver.items[at:]], receiver.pytype)
        if method in ("topk", "sort") or (method in ("max", "min") and (args or "dim" in kwargs)):
            return _values_and_indices(method, receiver, args, kwargs)
        if method in _PIECES:  # a tuple of tensors, of its length and sizes where the walk knows them
            parts, grad = pieces(method, receiver, args, kwargs), receiver.attrs.get("requires_grad")
            return Value(V.TUPLE, items=None if parts is None else [tensor(p, receiver.pytype, grad) for p in parts])
        if method in _REARRANGING:  # a view whose strides the walk does not work out
            return Value(V.TENSOR, items=rearranged(method, receiver, args, kwargs), pytype=receiver.pytype,
                         attrs=dict(UNKNOWN_STRIDES))
        if method in _NEW_FACTORIES:  # `x.new_zeros(b, n)`: another tensor of x's dtype
            return tensor(dims(args[:1] if method == "new_full" else args), receiver.pytype)
        return Value(V.TENSOR)
    # a new tensor does not require grad unless it is asked to (TENSOR_MATCH checks requires_grad)
    explicit, grad = dtype_of(kwargs.get("dtype")), kwargs.get("requires_grad") or V.const(False)
    if name in _FLOAT_FACTORIES:
        return tensor(dims(args), explicit or "float32", grad)
    if name == "torch.full" and args:
        fill = args[1] if len(args) > 1 else kwargs.get("fill_value")
        default = "int64" if fill is not None and isinstance(fill.value, int) and fill.known else "float32"
        return tensor(dims(args[:1]), explicit or default, grad)
    if name == "torch.where" and len(args) == 3:  # the chosen values' sizes (a mask broadcasts against them)
        return tensor(broadcast(args[1], args[2]), args[1].pytype or args[2].pytype)
    if name == "torch.linspace" and len(args) > 2 and args[2].known and isinstance(args[2].value, int):
        return with_values(tensor([args[2]], explicit or "float32", grad), linspace(args))
    if name == "torch.meshgrid" and args and all(a.kind == V.TENSOR and a.items and len(a.items) == 1 for a in args):
        grid = [a.items[0] for a in args]  # type: ignore[index]
        indexing = kwargs.get("indexing")
        if indexing is not None and indexing.known and indexing.value == "xy" and len(grid) > 1:
            grid[0], grid[1] = grid[1], grid[0]  # Cartesian indexing: the first two dimensions swapped
        return Value(V.TUPLE, items=[tensor(list(grid), a.pytype) for a in args])
    if name == "torch.randperm" and args:
        return tensor(dims(args[:1]), explicit or "int64", grad)
    if name == "torch.arange" and args and all(a.kind == V.CONST and a.known and isinstance(a.value, int)
                                               for a in args[:3]):
        made = tensor([V.const(len(range(*[a.value for a in args[:3]])))], explicit or "int64", grad)
        return with_values(made, arange(args))
    if name == "torch.randint" and args:
        size = kwargs.get("size") or args[-1]
        return tensor(dims([size]) if size.kind in (V.LIST, V.TUPLE) else None, explicit or "int64", grad)
    if name in _SAME_SHAPE and args and args[0].kind == V.TENSOR:
        return tensor(args[0].items, explicit or args[0].pytype, args[0].attrs.get("requires_grad"))
    if name == "torch.tensor" and args and args[0].kind in (V.LIST, V.TUPLE) and args[0].items is not None:
        nested = _nested(args[0])
        if nested is not None:  # `torch.tensor([list(prompt_ids)])`: the sizes of the nested lists
            sizes, kinds = nested
            kind = "float32" if float in kinds else "bool" if kinds == {bool} else "int64"
            made = tensor([V.const(n) for n in sizes], explicit or kind, grad)
            flat = args[0].items
            if len(sizes) == 1 and all(v.known for v in flat):
                made = with_values(made, [v.value for v in flat])
            return made
    if name in ("torch.cat", "torch.stack") and args and args[0].kind in (V.LIST, V.TUPLE) and args[0].items:
        dim = kwargs.get("dim") or (args[1] if len(args) > 1 else V.const(0))
        joined = concatenated if name == "torch.cat" else stacked
        return tensor(joined(args[0].items, dim), args[0].items[0].pytype)
    if name == "torch.eye" and args and args[0].kind == V.CONST:
        return tensor(dims(args[:2]) if len(args) > 1 else dims([args[0], args[0]]), explicit or "float32", grad)
    if name == "torch.nn.functional.linear" and len(args) > 1 and args[0].items and args[1].items \
            and len(args[1].items) == 2:
        return tensor([*args[0].items[:-1], args[1].items[0]], args[0].pytype)  # (..., in) -> (..., out)
    if name == "torch.nn.functional.embedding" and len(args) > 1 and args[0].items is not None and args[1].items \
            and len(args[1].items) == 2:
        return tensor([*args[0].items, args[1].items[1]], args[1].pytype)
    if name.removeprefix("torch.") in _PIECES and args and args[0].kind == V.TENSOR:  # `torch.chunk(x, 2)`
        return created(f"Tensor.{name.removeprefix('torch.')}", args[1:], kwargs, args[0])
    if name in ("torch.topk", "torch.sort", "torch.max", "torch.min") and args and args[0].kind == V.TENSOR:
        return _values_and_indices(name.rpartition(".")[2], args[0], args[1:], kwargs)
    if name == "torch.multinomial" and len(args) > 1 and args[0].items and args[1].known:
        return tensor([*args[0].items[:-1], args[1]], "int64")  # `num_samples` per row
    return Value(V.TENSOR)


def _nested(value: Value, depth: int = 0) -> tuple[list[int], set[type]] | None:
    """The sizes of a (nested) list of Python numbers, and their types; None when ragged or unknown."""
    if value.kind == V.CONST:
        return ([], {type(value.value)}) if value.known and type(value.value) in (int, float, bool) else None
    if value.kind not in (V.LIST, V.TUPLE) or value.items is None or depth > 4:
        return None
    parts = [_nested(item, depth + 1) for item in value.items]
    if any(p is None for p in parts) or len({tuple(p[0]) for p in parts if p is not None}) > 1:
        return None
    inner = parts[0][0] if parts and parts[0] is not None else []
    return [len(value.items), *inner], set().union(*(p[1] for p in parts if p is not None))


def _values_and_indices(op: str, x: Value, args: list[Value], kwargs: dict[str, Value]) -> Value:
    """`torch.topk(x, k)`, `x.sort()`, `x.max(dim=1)`: a (values, indices) pair, sized as the op sizes it
    (k along `dim` for topk, the same sizes for sort, `dim` reduced for max/min); `x.max()` is one tensor."""
    if op in ("max", "min") and not args and "dim" not in kwargs:
        return tensor([], x.pytype)
    sizes = None
    if x.items is not None:
        if op == "topk":
            k = args[0] if args else kwargs.get("k")
            dim = args[1] if len(args) > 1 else kwargs.get("dim", V.const(-1))
            if k is not None and dim.known and isinstance(dim.value, int) and x.items:
                at = dim.value % len(x.items)
                sizes = [*x.items[:at], k if k.kind == V.CONST else Value(V.CONST, pytype="int"), *x.items[at + 1:]]
        elif op == "sort":
            sizes = list(x.items)
        else:
            sizes = reduced(x, args, kwargs)
    return Value(V.TUPLE, items=[tensor(sizes, x.pytype), tensor(sizes, "int64")])


def grad_of(inputs: list[Value | None], grad_enabled: bool | None) -> Value | None:
    """Whether an eager op's result requires grad: never under torch.no_grad(), else when one of its
    tensor inputs does (None: not known)."""
    if grad_enabled is False:
        return V.const(False)
    flags = [v.attrs.get("requires_grad") for v in inputs if v is not None and v.kind == V.TENSOR]
    if any(f is not None and f.known and f.value for f in flags):
        return V.const(True) if grad_enabled else None
    if flags and all(f is not None and f.known for f in flags):
        return V.const(False)
    return None


def mark(how: str, args: list[Value]) -> Value:
    """`torch._dynamo.mark_dynamic(x, 0)`: the dimension is a SymInt from the first compile on, so a
    new size there reuses the graph (`mark_static`: every size compiles its own)."""
    if len(args) >= 2 and args[0].kind == V.TENSOR:
        dims = args[1].items if args[1].kind in (V.LIST, V.TUPLE) else [args[1]]
        marked = [d.value for d in dims or [] if d.known and isinstance(d.value, int)]
        key = f"{how}_dims"
        previous = args[0].attrs.get(key)
        known = list(previous.value) if previous is not None and previous.known else []
        args[0].attrs[key] = V.const(tuple(sorted({*known, *marked})))
    return V.const(None)
