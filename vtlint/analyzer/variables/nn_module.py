"""NNModuleVariable: an nn.Module instance, the project's or torch.nn's own (read from the
installed torch's source), and torch.nn's containers (ModuleList, Sequential, ModuleDict),
modelled natively as Dynamo's NNModuleVariable does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.objects import MAPPING_CONTAINERS, children, container_items, container_kind, container_of
from vtlint.analyzer.sources import ModuleChildSource, Source, attr_source
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables.user_defined import (
    EAGER_MODULE_METHODS,
    MODULE_METHODS,
    TRACED_MODULE_METHODS,
    UserDefinedObjectVariable,
)

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.walk import Act, Walker


# nn.Module's hook dicts, filled only by its `register_*hook` methods
HOOK_DICTS = frozenset({"_forward_hooks", "_forward_pre_hooks", "_backward_hooks", "_backward_pre_hooks",
                        "_forward_hooks_with_kwargs", "_forward_pre_hooks_with_kwargs", "_forward_hooks_always_called",
                        "_state_dict_hooks", "_load_state_dict_pre_hooks"})


class NNModuleVariable(UserDefinedObjectVariable):
    tracks = (V.NN_MODULE,)

    def wrap_refused(self) -> breaks.Decision | None:
        """A module from outside whose nn.Module.__init__ never ran: its `__dict__` is empty."""
        return breaks.decide_uninitialized_module() if self.source is not None and V.UNINITIALIZED in self.attrs \
            else None

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        if container_of(tx.project, self) and name in MODULE_METHODS:  # modelled natively, not read from torch
            return Value(V.LIB, ref=f"torch.nn.Module.{name}", bound_self=self)
        if self.keys is not None and name in self.keys and container_of(tx.project, self):
            found = children(self)  # `self.transformer.drop`: a ModuleDict's child by attribute
            if found is not None:
                return found[self.keys.index(name)]
        if name in HOOK_DICTS and name not in self.attrs and not tx.project.mentions("register_") \
                and not tx.project.mentions(f"{name} ="):
            # `getattr(m, "_forward_hooks", {})` (TransformerEncoderLayer's fast path): nn.Module.__init__
            # leaves them empty and the project registers no hook; Dynamo skips hook guards
            # (skip_nnmodule_hook_guards), so the read is no guard of its own
            return Value(V.DICT, keys=[], items=[])
        if self.ref and tx.project.klass(self.ref):
            return super().var_getattr(tx, name, act, node)
        child = self.attrs.get(name)
        if child is not None and child.kind == V.NN_MODULE:
            # `stage = nn.Module(); stage.block = nn.ModuleList()`: a submodule set on a bare module
            return child.with_(source=ModuleChildSource(self.source, name)) if self.source is not None else child
        # a torch.nn module whose class the walk cannot read: parameters are tensors, calls graph nodes
        if name in ("weight", "bias"):
            return Value(V.TENSOR, source=attr_source(self.source, name))
        return Value(V.LIB, ref=f"{self.ref}.{name}", bound_self=self)

    def getitem(self, tx: Walker, index: Value, act: Act, node: cst.CSTNode) -> Value:
        """`self.layers[0]`, `self.heads['cls']`: the child module with its `_modules` Source (a key read
        from outside, `self.embeddings[name]` over `self.names`, is a constant Dynamo guards)."""
        tx.use(index, act, node)
        found = children(self) if container_of(tx.project, self) else None
        if found is None or not index.known:
            return V.unknown()
        if self.keys is not None:
            return tx.first_reached(found[self.keys.index(index.value)]) if index.value in self.keys else V.unknown()
        if isinstance(index.value, int) and -len(found) <= index.value < len(found):
            return tx.first_reached(found[index.value])
        return V.unknown()

    def unpack_var_sequence(self, tx: Walker, act: Act, node: cst.CSTNode) -> list[Value] | None:
        if not container_of(tx.project, self):
            return None
        found = children(self)
        if found is not None and self.keys is not None:  # a ModuleDict iterates its keys
            return [V.const(k) for k in self.keys]
        return [tx.first_reached(c) for c in found] if found is not None else None

    def call_function(self, tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act,
                      node: cst.Call) -> Value:
        """`self.block(x)`: nn.Module.__call__ runs `forward`, which Dynamo inlines, torch.nn's
        built-ins included (inline_inbuilt_nn_modules)."""
        if self._is_rnn(tx) and (decision := breaks.decide_rnn_module(tx.settings, in_root_frame=act.depth == 0)):
            tx.graph_break(act, node, decision, "RNN module")
            return Value(V.TENSOR)
        if container_of(tx.project, self) == "Sequential" and not self._own_forward(tx):
            found = children(self)
            if found is not None and args:
                out = args[0]
                for layer in found:
                    out = tx.first_reached(layer).call_function(tx, [out], {}, act, node)
                return out
        if self.ref and tx.project.klass(self.ref):
            forward = self.instance_attr(tx, "forward")
            if forward.kind == V.FUNC:
                return tx.call_user(forward, args, kwargs, act, node)
        for value in args:
            tx.use(value, act, node)
        tx.frame.graph_ops += 1
        return Value(V.TENSOR)

    def _is_rnn(self, tx: Walker) -> bool:
        """An nn.RNN / GRU / LSTM (torch.nn.modules.rnn.RNNBase and its subclasses)."""
        return bool(self.ref) and tx.objects.is_subclass(self.ref or "", "torch.nn.modules.rnn.RNNBase") is True

    def _own_forward(self, tx: Walker) -> bool:
        """Whether the module's class (not torch's container) defines `forward`."""
        forward = self.instance_attr(tx, "forward") if self.ref and tx.project.klass(self.ref) else None
        return forward is not None and forward.kind == V.FUNC and not (forward.ref or "").startswith("torch.")

    def call_method(self, tx: Walker, method: str, args: list[Value], kwargs: dict[str, Value], act: Act,
                    node: cst.Call) -> Value | None:
        """nn.Module's own methods that build the module tree (`register_buffer`, `add_module`,
        `ModuleList.append`, ...): they change `_modules` / attributes, not the graph."""
        if method in EAGER_MODULE_METHODS and tx.eager:
            return _module_tree(self, method)
        if method in TRACED_MODULE_METHODS and not tx.eager and self.source is not None:
            # NNModuleVariable.call_method: each submodule reached from the module's Source
            return _module_tree(self, method, self.source)
        if method == "apply" and tx.eager and args:
            # `model.apply(init_weights)`: every submodule, children before their parent
            for module in _post_order(self):
                tx.call(args[0], [module], {}, act, node)
            return self
        kind = container_of(tx.project, self) if method == "__init__" else None
        if kind is not None and not container_kind(self.ref):
            # `super().__init__(conv, norm, act)` in a subclass of Sequential: the children, in order
            if kind in MAPPING_CONTAINERS:
                given = args[0] if args and args[0].kind == V.DICT else Value(V.DICT, keys=[], items=[])
                self.keys, self.items = given.keys, given.items
            else:
                self.items, self.sample = container_items(kind, args)
            return V.const(None)
        if method not in MODULE_METHODS:
            return None
        named = args[0].value if args and args[0].known and isinstance(args[0].value, str) else None
        if method in ("register_buffer", "register_parameter", "add_module", "register_module"):
            if named is not None and len(args) > 1:
                self.attrs[named] = args[1].with_(source=None)
        elif method in ("append", "extend", "insert") and self.items is not None:
            if method == "append" and args:
                self.items = [*self.items, args[0]]
            elif method == "extend" and args and args[0].kind in (V.LIST, V.TUPLE, V.NN_MODULE):
                self.items = [*self.items, *args[0].items] if args[0].items is not None else None
            elif method == "insert" and len(args) == 2 and args[0].known and isinstance(args[0].value, int):
                items = list(self.items)  # `self.up.insert(0, stage)`: list.insert's own placement
                items.insert(args[0].value, args[1])
                self.items = items
            else:
                self.items = None
        elif method == "update" and self.keys is not None and args and args[0].kind == V.DICT:
            if args[0].keys is not None and args[0].items is not None and self.items is not None:
                self.keys, self.items = [*self.keys, *args[0].keys], [*self.items, *args[0].items]
        elif method in ("keys", "values", "items") and self.keys is not None:
            found = children(self) or []
            keys = [V.const(k) for k in self.keys]
            pairs = {"keys": keys, "values": found,
                     "items": [Value(V.TUPLE, items=[k, v]) for k, v in zip(keys, found)]}
            return Value(V.LIST, items=pairs[method])
        elif method == "children" and self.items is not None:
            return Value(V.LIST, items=children(self))
        elif method == "compile" and tx.eager:
            tx.compiles(self, {}, act, node)
        elif method == "requires_grad_" and tx.eager:
            flag = args[0] if args else kwargs.get("requires_grad", V.const(True))
            for _, _, parameter in parameters_of(self):
                parameter.attrs["requires_grad"] = flag
            return self
        elif method in ("train", "eval"):
            mode = method == "train" and (not args or not args[0].known or bool(args[0].value))
            set_training(self, mode, stored=None if tx.eager else tx.stored)
            return self
        elif method in _RETURN_SELF:
            return self
        return V.const(None) if method not in ("keys", "values", "items", "children") else V.unknown()


# Module methods that return the module itself (`model = Net().to(device)`).
_RETURN_SELF = frozenset({"to", "cuda", "cpu", "float", "half", "double", "bfloat16", "requires_grad_"})


def parameters_of(module: Value, source: Source | None = None, prefix: str = "",
                  depth: int = 0) -> list[tuple[str, Source | None, Value]]:
    """`module.named_parameters()`: its own parameters, then its children's, each with its dotted name
    and, read from `source`, the Source Dynamo guards it under (`L['self'].backbone.bias`,
    `L['self'].layers._modules['0'].weight`)."""
    if depth > 16:
        return []
    found = [(f"{prefix}{name}", attr_source(source, name), value) for name, value in module.attrs.items()
             if value.kind == V.TENSOR and "parameter" in value.attrs]
    for name, child in named_children(module):
        inner = ModuleChildSource(source, name) if source is not None else None
        found += parameters_of(child, inner, f"{prefix}{name}.", depth + 1)
    return found


def named_children(module: Value) -> list[tuple[str, Value]]:
    """`module.named_children()`: its submodules in registration order (a container's by index or
    key)."""
    found = [(name, value) for name, value in module.attrs.items() if value.kind == V.NN_MODULE]
    keys = module.keys if module.keys is not None else [str(i) for i in range(len(module.items or []))]
    return found + [(str(k), item) for k, item in zip(keys, module.items or []) if item.kind == V.NN_MODULE]


def named_modules(module: Value, prefix: str = "", seen: set[int] | None = None,
                  depth: int = 0) -> list[tuple[str, Value]]:
    """`module.named_modules()`: the module, then every submodule depth first, each once."""
    seen = set() if seen is None else seen
    if id(module) in seen or depth > 32:
        return []
    seen.add(id(module))
    out = [(prefix, module)]
    for name, child in named_children(module):
        out += named_modules(child, f"{prefix}.{name}" if prefix else name, seen, depth + 1)
    return out


def _post_order(module: Value, depth: int = 0) -> list[Value]:
    """The order `nn.Module.apply` visits: each child's subtree, then the module."""
    if depth > 32:
        return []
    return [m for _, child in named_children(module) for m in _post_order(child, depth + 1)] + [module]


def _module_tree(module: Value, method: str, source: Source | None = None) -> Value:
    """What eager code iterates to change a model in place (LoRA injection, freezing, dropout off):
    `parameters()`, `named_parameters()`, `children()`, `named_children()`, `modules()`,
    `named_modules()`; in traced code (`source`) each submodule carries the Source Dynamo reads it under."""
    if method in ("parameters", "named_parameters"):
        found = [(n, p) for n, _, p in parameters_of(module)]
    elif method in ("children", "named_children"):
        found = named_children(module)
    else:
        found = named_modules(module)
    if source is not None:
        found = [(n, v.with_(source=_child_source(source, n))) for n, v in found]
    if method.startswith("named_"):
        return Value(V.LIST, items=[Value(V.TUPLE, items=[V.const(n), v]) for n, v in found])
    return Value(V.LIST, items=[v for _, v in found])


def _child_source(source: Source, dotted: str) -> Source:
    """`L['self'].layers._modules['0'].attn` from the module's Source and a `named_modules()` name."""
    for name in dotted.split(".") if dotted else []:
        source = ModuleChildSource(source, name)
    return source


def set_child(module: Value, name: str, value: Value) -> None:
    """`setattr(parent, "c_attn", LoRALinear(...))`: the child (or attribute) replaced in place."""
    value = value.with_(source=None)  # reached through its new parent from now on
    if module.keys is not None and name in module.keys and module.items is not None:
        module.items[module.keys.index(name)] = value
    elif module.keys is None and module.items is not None and name.isdigit() and int(name) < len(module.items):
        module.items[int(name)] = value
    else:
        module.attrs[name] = value


def set_training(module: Value, mode: bool | None, depth: int = 0, stored: set[tuple[int, str]] | None = None) -> None:
    """`model.eval()` / `model.train()`: nn.Module.train sets `training` on the module and every
    submodule, which Dynamo then guards (`...dropout.training == False`). None: a model whose
    mode nobody shows (built and switched outside the analyzed code). Called inside the traced
    frame (`stored`), the new values are side effects: later reads see them, unguarded."""
    if depth > 32:
        return
    module.attrs["training"] = V.const(mode) if mode is not None else Value(V.CONST, pytype="bool",
                                                                            confidence="medium")
    if stored is not None:
        stored.add((id(module.attrs), "training"))
    for child in [*module.attrs.values(), *(module.items or []), *([module.sample] if module.sample else [])]:
        if child.kind == V.NN_MODULE:
            set_training(child, mode, depth + 1, stored)
