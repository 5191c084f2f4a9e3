"""Optimizers, as Dynamo meets them: `torch.optim.AdamW(...)` built by the script is a
user-defined object whose class (AdamW, SGD, a project's own subclass) is read from the
installed torch, its `__init__` walked with the constructor's arguments. What is modelled
here is the base, `torch.optim.Optimizer`, whose code the walk does not read:

- `__init__(params, defaults)` keeps `defaults` and builds `param_groups`: each group is the
  dict the user passed (or `{"params": [...]}`), then every default it lacks, in the
  defaults' order (`add_param_group`'s `setdefault`); a compiled step that sets
  `group["lr"] = lr` guards all of them, as a dict from outside changed in the frame;
- in traced code, reading `optimizer.param_groups` realizes every group whole (each value
  guarded) and sets `capturable = True` in each (OptimizerVariable's `_set_capturable`, a
  change replayed after the graph: the next call fails the old guard and recompiles once);
- `zero_grad` and `add_param_group` are `@torch._disable_dynamo`: a call in traced code is a
  skipped method (GB0008); `step` is the subclass's own, read from torch (its
  `_use_grad_for_differentiable` wrapper calls `torch._dynamo.graph_break()`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.sources import item_source
from vtlint.analyzer.values import Value

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.index import Project
    from vtlint.analyzer.walk import Act, Walker

# The base class as torch's optimizers and users' subclasses name it.
OPTIMIZER_BASES = frozenset({"torch.optim.optimizer.Optimizer", "torch.optim.Optimizer"})
BASE = "torch.optim.Optimizer"
# The base's methods the walk models; the others (`state_dict`, ...) stay unknown.
BASE_METHODS = frozenset({"__init__", "add_param_group", "zero_grad"})
SKIPPED_METHODS = frozenset({"add_param_group", "zero_grad"})  # `@torch._disable_dynamo` in torch
REALIZED = "realized"  # attrs flag of a param group the frame has realized: a store guards nothing more


def is_optimizer(project: Project, value: Value) -> bool:
    """An instance of a torch.optim optimizer (or of a project's subclass of one)."""
    found = project.klass(value.ref or "") if value.kind == V.OBJECT else None
    return found is not None and not OPTIMIZER_BASES.isdisjoint(project.external_bases(*found))


def base_method(project: Project, receiver: Value, name: str) -> Value | None:
    """`optimizer.zero_grad`, `super().__init__` of an optimizer: the base's method, bound."""
    if name in BASE_METHODS and is_optimizer(project, receiver):
        return Value(V.LIB, ref=f"{BASE}.{name}", bound_self=receiver)
    return None


def eager_step(project: Project, receiver: Value, name: str) -> Value | None:
    """`optimizer.step()` in the script: it changes tensors only, and its code (the whole update) is
    not walked there."""
    if name == "step" and is_optimizer(project, receiver):
        return Value(V.LIB, ref=f"{BASE}.step", bound_self=receiver)
    return None


def call_base(tx: Walker, name: str, receiver: Value, args: list[Value], kwargs: dict[str, Value], act: Act,
              node: cst.Call) -> Value:
    method = name.removeprefix(f"{BASE}.")
    if not tx.eager and method in SKIPPED_METHODS:
        tx.graph_break(act, node, breaks.decide_skipped_wrapper(f"Optimizer.{method}", method=True), name)
        return V.unknown()
    if method == "__init__":
        _init(receiver, args, kwargs)
    elif method == "add_param_group" and args:
        _add_group(receiver, args[0])
    return V.const(None)


def read_param_groups(tx: Walker, groups: Value, act: Act, node: cst.CSTNode) -> None:
    """`optimizer.param_groups` in traced code: each group realized whole, then `capturable` set."""
    for group in groups.unpack_var_sequence(tx, act, node) or []:
        if group.kind != V.DICT or group.keys is None or group.items is None or group.source is None:
            continue
        tx.realize_items(group, act, node)
        if "capturable" in group.keys:
            position = group.keys.index("capturable")
            tx.set_in_frame(item_source(group.source, "capturable"), V.const(True), act, node)
            group.items[position] = V.const(True)
        else:  # a new key: the group's DICT_LENGTH fails on the next call, whose compile guards it
            tx.set_in_frame(group.source, V.const(True), act, node, dict_length=len(group.keys))
            group.keys.append("capturable")
            group.items.append(V.const(True))
            tx.use(Value(V.CONST, source=item_source(group.source, "capturable"), value=True, pytype="bool",
                         confidence="medium"), act, node)
        group.attrs[REALIZED] = V.const(True)


def _init(receiver: Value, args: list[Value], kwargs: dict[str, Value]) -> None:
    params = args[0] if args else kwargs.get("params", V.unknown())
    receiver.attrs["defaults"] = args[1] if len(args) > 1 else kwargs.get("defaults", V.unknown())
    receiver.attrs["state"] = Value(V.DICT, keys=[], items=[])
    receiver.attrs["param_groups"] = Value(V.LIST, items=[])
    given = params.items if params.kind in (V.LIST, V.TUPLE) else None
    if given is not None and given and all(g.kind == V.DICT for g in given):
        for group in given:
            _add_group(receiver, group)
    elif given is not None and given and any(g.kind == V.DICT for g in given):
        receiver.attrs["param_groups"] = Value(V.LIST)  # some groups the walk cannot read
    else:  # an iterable of tensors: one group
        _add_group(receiver, Value(V.DICT, keys=["params"], items=[params]))


def _add_group(receiver: Value, group: Value) -> None:
    """`add_param_group`: the group's own entries (its params as a list), then each default it lacks."""
    groups = receiver.attrs.get("param_groups")
    defaults = receiver.attrs.get("defaults")
    if groups is None or groups.items is None:
        return
    if group.kind != V.DICT or group.keys is None or group.items is None or defaults is None \
            or defaults.kind != V.DICT or defaults.keys is None or defaults.items is None:
        groups.items = None  # a group whose keys the walk cannot know
        return
    keys, items = list(group.keys), [i.with_(source=None) for i in group.items]
    if "params" in keys:
        params = items[keys.index("params")]
        items[keys.index("params")] = _as_list(params)
    for key, default in zip(defaults.keys, defaults.items):
        if key not in keys:
            keys.append(key)
            items.append(default.with_(source=None))
    groups.items.append(Value(V.DICT, keys=keys, items=items))


def _as_list(params: Value) -> Value:
    """`param_group["params"] = list(params)`; a single tensor becomes `[tensor]`."""
    if params.kind == V.TENSOR:
        return Value(V.LIST, items=[params])
    if params.kind in (V.LIST, V.TUPLE):
        return Value(V.LIST, items=list(params.items) if params.items is not None else None, sample=params.sample)
    return Value(V.LIST)
