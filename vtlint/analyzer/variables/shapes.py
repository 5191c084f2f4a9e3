"""The sizes of tensors the program builds eagerly, through the ops that make them.

A TENSOR_MATCH guard checks a tensor's sizes, so the call that passes another size (the last
partial batch, a sequence one token longer, the last chunk of rays) recompiles. The eager walk
keeps each tensor's sizes in `items` (int constants, or ints of unknown value) where it can
work them out; every function here returns the result's sizes, or None when they are not known."""

from __future__ import annotations

import itertools
import math
from typing import Any

from vtlint.analyzer import values as V
from vtlint.analyzer.bounds import checked
from vtlint.analyzer.values import Value

Sizes = list[Value]


def dims(values: list[Value]) -> Sizes | None:
    """`torch.randn(16, 6)` / `torch.randn((16, 6))`: the sizes, each an int constant."""
    if len(values) == 1 and values[0].kind in (V.LIST, V.TUPLE):
        values = values[0].items or []
    if not values or not all(v.kind == V.CONST and (not v.known or isinstance(v.value, int)) for v in values):
        return None
    return [V.const(v.value) if v.known else Value(V.CONST, pytype="int") for v in values]


def known(value: Value) -> list[int] | None:
    if value.items is None or not all(i.known and isinstance(i.value, int) for i in value.items):
        return None
    return [i.value for i in value.items]


def indexed(base: Value, index: Value) -> Sizes | None:
    """`x[3]` drops the first size; `x[idx]` with a 1-D index tensor of k elements makes it k (a batch
    gathered by a permutation's slice)."""
    return subscripted(base, [("index", index)])


def sliced(base: Value, bounds: list[Value | None]) -> Sizes | None:
    """`x[i:i + bs]`: the first size cut as `range(n)[i:i + bs]` cuts it (the last batch is shorter)."""
    return subscripted(base, [("slice", bounds)])


def subscripted(base: Value, parts: list[tuple[str, Any]]) -> Sizes | None:
    """`x[:, t]`, `x[:, : t + 1]`, `z[..., None]`, `c2w[:3, :3]`, `x[idx]`: each int drops a size,
    each slice cuts one, `None` adds a 1, `...` keeps the sizes it stands for."""
    found = view(base, parts)
    return found[0] if found is not None else None


def view(base: Value, parts: list[tuple[str, Any]]) -> tuple[Sizes, list[int] | None] | None:
    """The sizes of `base[parts]`, and its strides when it is a view whose strides the walk knows (an
    index tensor gathers: a new, contiguous tensor). Of a tensor whose sizes the walk does not know, a
    subscript without `...` names every dimension (`src[:, -1:, :]`: three, the middle one of size 1)."""
    consuming = sum(1 for kind, value in parts if kind == "slice" or (kind == "index" and not _is_none(value)))
    if base.items is None and (base.kind != V.TENSOR or any(kind == "ellipsis" for kind, _ in parts)):
        return None
    sizes, out, at = list(base.items) if base.items is not None else [Value(V.CONST, pytype="int")] * consuming, [], 0
    old = strides(base)
    steps: list[int] | None = []
    for kind, value in parts:
        if kind == "ellipsis":
            kept = max(len(sizes) - at - (consuming - _consumed(parts, kind, value)), 0)
            out += sizes[at:at + kept]
            steps = steps + old[at:at + kept] if steps is not None and old is not None else None
            at += kept
        elif kind == "index" and _is_none(value):
            out.append(V.const(1))
            if steps is not None and old is not None:
                steps.append(old[at] * sizes[at].value if at < len(sizes) and sizes[at].known else 1)
        elif at >= len(sizes):
            return None
        elif kind == "index" and value.kind == V.CONST and value.known and type(value.value) is int:
            at += 1
        elif kind == "index" and value.kind == V.TENSOR and value.items == [] \
                and (value.pytype or "int64").startswith(("int", "uint")):
            at, steps = at + 1, None  # a 0-d index tensor (`w[expert_idx]`) picks one, as an int does (a copy)
        elif kind == "index" and value.kind == V.TENSOR and value.items is not None and len(value.items) == 1 \
                and (value.pytype or "").startswith("int"):
            out.append(value.items[0])
            at, steps = at + 1, None  # gathered: a new tensor
        elif kind == "slice":
            out.append(_cut(sizes[at], value))
            step = value[2].value if value[2] is not None and value[2].known else 1
            steps = steps + [old[at] * step] if steps is not None and old is not None else None
            at += 1
        else:
            return None
    if steps is not None and old is not None:
        steps += old[at:]
    return out + sizes[at:], steps


STRIDES = "strides"  # attrs of a view whose strides are not its sizes' contiguous ones (unknown: not known)
UNKNOWN_STRIDES = {STRIDES: Value(V.CONST)}


def strides(value: Value) -> list[int] | None:
    """A tensor's strides: a view's own, else the contiguous strides of its sizes (when known)."""
    given = value.attrs.get(STRIDES)
    if given is not None:
        return list(given.value) if given.known else None  # a permuted or expanded view: not known
    counts = known(value)
    if counts is None:
        return None
    out, step = [], 1
    for count in reversed(counts):
        out.append(step)
        step *= count
    return list(reversed(out))


def view_attrs(sizes: Sizes | None, steps: list[int] | None) -> dict[str, Value]:
    """The attrs a view keeps: its strides, when they are not the contiguous ones of its sizes."""
    if sizes is None or steps is None:
        return {}
    contiguous = strides(Value(V.TENSOR, items=sizes))
    return {STRIDES: V.const(tuple(steps))} if contiguous is not None and contiguous != steps else {}


def _consumed(parts: list[tuple[str, Any]], kind: str, value: Any) -> int:
    """How many of the parts before this one take a size."""
    count = 0
    for part in parts:
        if part == (kind, value):
            return count
        count += part[0] == "slice" or (part[0] == "index" and not _is_none(part[1]))
    return count


def _is_none(value: Any) -> bool:
    return isinstance(value, Value) and value.kind == V.CONST and value.known and value.value is None


def _cut(size: Value, bounds: list[Value | None]) -> Value:
    """The length of a slice of a dimension; of one whose size is not known, the length when it is
    the same for every size (`[-1:]`, `[:1]`: one, unless the dimension is empty). The first `capacity`
    of the tokens an expert got are still as many as the data decides (at most that many)."""
    unknown = data_dependent_size() if DATA_DEPENDENT in size.attrs else Value(V.CONST, pytype="int")
    if not all(b is None or (b.known and isinstance(b.value, int)) for b in bounds):
        return unknown
    part = slice(*[b.value if b is not None else None for b in bounds])
    if size.known:
        return V.const(len(range(size.value)[part]))
    lengths = {len(range(n)[part]) for n in range(1, _SIZES_TRIED)}
    return V.const(lengths.pop()) if len(lengths) == 1 else unknown


_SIZES_TRIED = 65  # the sizes a slice of an unknown dimension is tried on


def broadcast(left: Value, right: Value) -> Sizes | None:
    """The sizes of an elementwise op's result (numpy's broadcasting), when both operands' are known,
    or one operand is a Python number."""
    if left.kind != V.TENSOR:
        return right.items
    if right.kind != V.TENSOR:
        return left.items
    sizes = known(left), known(right)
    if sizes[0] is None or sizes[1] is None:
        return None
    out: list[int] = []
    for a, b in itertools.zip_longest(reversed(sizes[0]), reversed(sizes[1]), fillvalue=1):
        if a != b and 1 not in (a, b):
            return None
        out.append(max(a, b) if 1 in (a, b) else a)
    return [V.const(n) for n in reversed(out)]


def matmul(left: Value, right: Value) -> Sizes | None:
    """`a @ b` of two matrices (or a batch of them times a matrix): (..., n, k) @ (k, m) -> (..., n, m); a size
    the walk does not know stays unknown (the tokens an expert got: `current_state @ w[expert_idx]`)."""
    if left.items is None or right.items is None or len(left.items) < 2 or len(right.items) != 2:
        return None
    inner, rows = left.items[-1], right.items[0]
    if inner.known and rows.known and inner.value != rows.value:
        return None
    return [*left.items[:-1], right.items[1]]


def reduced(receiver: Value, args: list[Value], kwargs: dict[str, Value]) -> Sizes | None:
    """`x.mean(dim=0, keepdim=True)`: the sizes without that dimension, or with 1 there."""
    dim = kwargs.get("dim") or (args[0] if args else None)
    keep = kwargs.get("keepdim") or (args[1] if len(args) > 1 else V.const(False))
    if receiver.items is None or dim is None or not dim.known or not isinstance(dim.value, int) or not keep.known:
        return None
    at = dim.value % len(receiver.items) if receiver.items else 0
    return [*receiver.items[:at], *([V.const(1)] if keep.value else []), *receiver.items[at + 1:]]


def reshaped(receiver: Value, args: list[Value]) -> Sizes | None:
    """`x.view(n, 3, 1, 1)` / `x.reshape(-1, 4)`: the sizes asked for, a -1 worked out from the total;
    an int the walk does not know (`hidden.reshape(-1, d_model)` of an unknown `d_model`) is a size of
    unknown value, the rank still known."""
    wanted = args[0].items if len(args) == 1 and args[0].kind in (V.LIST, V.TUPLE) else args
    if not wanted or not all(w.kind == V.CONST and (not w.known or isinstance(w.value, int)) for w in wanted):
        return None
    if not all(w.known for w in wanted):
        return [V.const(w.value) if w.known and w.value != -1 else Value(V.CONST, pytype="int") for w in wanted]
    sizes = [w.value for w in wanted or []]
    if sizes.count(-1) == 0:
        return [V.const(n) for n in sizes]
    total, rest = known(receiver), math.prod(n for n in sizes if n != -1)
    if sizes.count(-1) > 1 or rest == 0:
        return None
    if total is None:  # `attn_output.reshape(*input_shape, -1)` of an unknown output: the rest of it, of unknown size
        return [V.const(n) if n != -1 else Value(V.CONST, pytype="int") for n in sizes]
    return [V.const(math.prod(total) // rest if n == -1 else n) for n in sizes]


def _axis(value: Value | None, rank: int, extra: int = 0) -> int | None:
    """A dimension argument as a position (`-1` is the last), for a result of `rank + extra` dims."""
    if value is None or not value.known or type(value.value) is not int or rank + extra == 0:
        return None
    return value.value % (rank + extra)


def rearranged(method: str, receiver: Value, args: list[Value], kwargs: dict[str, Value]) -> Sizes | None:
    """Methods that move, drop, add or repeat dimensions: `t()`, `transpose(0, 1)`, `permute(...)`,
    `squeeze(1)`, `flatten(1)`, `expand(...)`, `expand_as(y)`, `repeat(...)`."""
    sizes = receiver.items
    if sizes is None:
        return None
    rank = len(sizes)
    if method in ("t", "T") and rank <= 2:
        return list(reversed(sizes))
    if method == "mT" and rank >= 2:
        return [*sizes[:-2], sizes[-1], sizes[-2]]
    if method in ("transpose", "swapaxes", "swapdims") and len(args) == 2:
        a, b = _axis(args[0], rank), _axis(args[1], rank)
        if a is None or b is None:
            return None
        out = list(sizes)
        out[a], out[b] = out[b], out[a]
        return out
    if method == "permute":
        order = args[0].items if len(args) == 1 and args[0].kind in (V.LIST, V.TUPLE) else args
        axes = [_axis(d, rank) for d in order or []]
        return [sizes[a] for a in axes] if len(axes) == rank and None not in axes else None  # type: ignore[index]
    if method == "squeeze":
        if not args and "dim" not in kwargs:
            return [s for s in sizes if not (s.known and s.value == 1)] if known(receiver) is not None else None
        at = _axis(args[0] if args else kwargs.get("dim"), rank)
        if at is None:
            return None
        return [s for i, s in enumerate(sizes) if i != at or not (s.known and s.value == 1)]
    if method == "flatten":
        start = _axis(args[0] if args else kwargs.get("start_dim", V.const(0)), rank)
        end = _axis(args[1] if len(args) > 1 else kwargs.get("end_dim", V.const(-1)), rank)
        counts = known(receiver)
        if start is None or end is None or counts is None:
            return None
        return [*sizes[:start], V.const(math.prod(counts[start:end + 1])), *sizes[end + 1:]]
    if method == "unfold" and len(args) == 3:  # sliding windows of `size` every `step` along `dim`
        at, size, step = _axis(args[0], rank), args[1], args[2]
        counts = known(receiver)
        if at is None or counts is None or not (size.known and step.known) or not step.value:
            return None
        windows = (counts[at] - size.value) // step.value + 1
        return [*sizes[:at], V.const(windows), *sizes[at + 1:], size]
    if method == "expand_as" and args:
        return args[0].items
    if method in ("expand", "repeat"):
        wanted = args[0].items if len(args) == 1 and args[0].kind in (V.LIST, V.TUPLE) else args
        if not wanted or any(w.kind != V.CONST for w in wanted):
            return None
        if method == "expand":
            pad = [None] * (len(wanted) - rank) + list(sizes)
            return [old if (w.known and w.value == -1 and old is not None) else w for w, old in zip(wanted, pad)]
        counts = known(receiver)
        if counts is None or not all(w.known for w in wanted) or len(wanted) < rank:
            return None
        padded = [1] * (len(wanted) - rank) + counts
        return [V.const(n * w.value) for n, w in zip(padded, wanted)]
    return None


MAX_PIECES = 64  # more pieces than a walk follows one by one


def pieces(method: str, receiver: Value, args: list[Value], kwargs: dict[str, Value]) -> list[Sizes | None] | None:
    """`x.chunk(4)`, `x.split(4, dim=1)`, `x.split([3, 5])`, `x.unbind(0)`: each piece's sizes (None where not
    known), the other dimensions kept, a size the data decides included (an expert's tokens: `gate, up =
    linear(current_state, w).chunk(2, dim=-1)`); the last chunk is the smaller. Of a dimension whose size
    is unknown, `chunk(n)` makes `n` pieces, as a loop over them or unpacking them expects."""
    sizes = receiver.items
    dim = args[0 if method == "unbind" else 1] if len(args) > (method != "unbind") else kwargs.get("dim", V.const(0))
    at = _axis(dim, len(sizes or []))
    first = args[0] if args else kwargs.get("chunks" if method == "chunk" else "split_size_or_sections")
    size = sizes[at].value if sizes is not None and at is not None and sizes[at].known else None
    if method == "unbind":
        return None if size is None else [[*sizes[:at], *sizes[at + 1:]]] * size  # type: ignore[index]
    if first is None:
        return None
    if first.kind in (V.LIST, V.TUPLE):  # `split([3, 5])`: the sections asked for
        if first.items is None or not all(n.kind == V.CONST for n in first.items):
            return None
        return [None if sizes is None or at is None else [*sizes[:at], n, *sizes[at + 1:]] for n in first.items]
    if not first.known or type(first.value) is not int or not 0 < first.value <= MAX_PIECES:
        return None
    if size is None or sizes is None or at is None:
        wide = None if sizes is None or at is None else [*sizes[:at], Value(V.CONST, pytype="int"), *sizes[at + 1:]]
        return [wide] * first.value if method == "chunk" else None
    step = -(-size // first.value) if method == "chunk" else first.value
    return [[*sizes[:at], V.const(min(step, size - start)), *sizes[at + 1:]] for start in range(0, size, step)]


def stacked(parts: list[Value], dim: Value) -> Sizes | None:
    """`torch.stack(parts, dim)`: the parts' common sizes with their number inserted at `dim`."""
    shapes = [p.items for p in parts]
    if not shapes or any(s is None for s in shapes) or len({len(s) for s in shapes if s is not None}) != 1:
        return None
    first = shapes[0] or []
    at = _axis(dim, len(first), extra=1)
    return None if at is None else [*first[:at], V.const(len(parts)), *first[at:]]


def concatenated(parts: list[Value], dim: Value) -> Sizes | None:
    """`torch.cat` along `dim`: the parts' sizes there add up. A part whose size the walk does not
    know adds at least one (a sequence grown token by token is longer at every step)."""
    shapes = [p.items for p in parts]
    present = [s for s in shapes if s is not None]
    if not dim.known or not isinstance(dim.value, int) or not present:
        return None
    rank = len(present[0])
    if rank == 0 or any(len(s) != rank for s in present):
        return None
    axis = dim.value % rank
    sizes = [s[axis] if s is not None else None for s in shapes]
    total = sum(v.value for v in sizes if v is not None and v.known)
    unknown = sum(1 for v in sizes if v is None or not v.known)
    shape = list(present[0])
    shape[axis] = V.const(total) if not unknown else \
        Value(V.CONST, pytype="int", attrs={"at_least": V.const(total + unknown)})
    return shape


DATA_DEPENDENT = "data_dependent"  # attrs flag of a size that depends on the tensor's data


def data_dependent_size() -> Value:
    """A size only the data decides (`torch.where(mask)`, `x[mask]`, `nonzero()`): it is another one at
    almost every call, which fails a TENSOR_MATCH guard's static size."""
    return Value(V.CONST, pytype="int", attrs={DATA_DEPENDENT: V.const(True)})


def data_dependent(name: str, receiver: Value | None, args: list[Value]) -> Value | None:
    """What eager code gets from an op whose output size depends on the data: `torch.where(mask)`
    (one index tensor per dimension), `nonzero()`, `masked_select`, `unique`."""
    method = name.rpartition(".")[2]
    target = receiver if receiver is not None else (args[0] if args else None)
    if target is None or target.kind != V.TENSOR:
        return None
    rank = len(target.items) if target.items is not None else None
    elements = values_of(target)  # a 1-D tensor whose elements the walk knows: how many are true
    count = V.const(sum(1 for e in elements if e)) if elements is not None else data_dependent_size()
    if name == "torch.where" and len(args) == 1:
        row = Value(V.TENSOR, items=[count], pytype="int64")
        return Value(V.TUPLE, items=[row] * rank) if rank is not None else Value(V.TUPLE, sample=row)
    if method in ("nonzero", "argwhere"):  # (n, ndim): two dimensions, whatever the input's rank
        return Value(V.TENSOR, items=[count, V.const(rank) if rank is not None else Value(V.CONST, pytype="int")],
                     pytype="int64")
    if method in ("masked_select", "unique"):
        return Value(V.TENSOR, items=[data_dependent_size()], pytype=target.pytype)
    return None


VALUES = "values"  # attrs of a small 1-D tensor whose elements eager code computed (`torch.arange(4) * 25`)
MAX_VALUES = 64


def with_values(value: Value, elements: list[Any] | None) -> Value:
    """`value`, remembering its elements (a schedule of timesteps a sampling loop goes over)."""
    if elements is None or len(elements) > MAX_VALUES:
        return value
    return value.with_(attrs={**value.attrs, VALUES: V.const(tuple(elements))})


def values_of(value: Value) -> list[Any] | None:
    found = value.attrs.get(VALUES) if value.kind == V.TENSOR else None
    return list(found.value) if found is not None and found.known else None


def arange(args: list[Value]) -> list[Any] | None:
    bounds = [a.value for a in args[:3]]
    return list(range(*bounds)) if all(isinstance(b, int) for b in bounds) and len(range(*bounds)) <= MAX_VALUES \
        else None


def linspace(args: list[Value]) -> list[Any] | None:
    if len(args) < 3 or not all(a.known and isinstance(a.value, (int, float)) for a in args[:3]):
        return None
    start, end, steps = args[0].value, args[1].value, args[2].value
    if not isinstance(steps, int) or not 0 < steps <= MAX_VALUES:
        return None
    return [start + (end - start) * i / (steps - 1) if steps > 1 else start for i in range(steps)]


def elementwise(op: Any, left: Value, right: Value) -> list[Any] | None:
    """A tensor's known elements combined with a Python number (`ts * ratio`, `T - 1 - ts`)."""
    lvals, rvals = values_of(left), values_of(right)
    try:
        if lvals is not None and right.kind == V.CONST and right.known:
            return [checked(op, v, right.value) for v in lvals]
        if rvals is not None and left.kind == V.CONST and left.known:
            return [checked(op, left.value, v) for v in rvals]
    except Exception:  # noqa: BLE001 - what Python would raise on these numbers (or a result too large): not known
        return None
    return None
