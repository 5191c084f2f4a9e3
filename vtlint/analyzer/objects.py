"""The object model: instances built as Python builds them, `__init__` run abstractly.

Dynamo meets objects that were built before tracing started: a model constructed in
`main()`, its submodules, its config. The static pass rebuilds them the same way: the
class's `__init__` is walked (by the walk itself, in construction mode: no events, no
breaks) with the arguments known at the construction site, so `Block(256)` gives
`self.lin` an `nn.Linear(256, 256)` whose own `__init__` (read from the installed torch)
sets `in_features`, and `nn.LayerNorm(256)` a `normalized_shape` of `(256,)` and an `eps`.

torch.nn's containers are modelled natively, as Dynamo's own NNModuleVariable does:
ModuleList / Sequential hold their children in order (`_modules['0']`, ...), ModuleDict
by key."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.sources import ModuleChildSource, Source
from vtlint.analyzer.summary import ClassSummary, ModuleSummary
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables.library import is_torch_nn_class
from vtlint.analyzer.variables.user_defined import (
    fill_dict_storage,
    generated_init,
    init_of,
    is_dataclass_like,
    is_dict_subclass,
    post_init_of,
    qualified,
)

if TYPE_CHECKING:
    from vtlint.analyzer.index import Project
    from vtlint.analyzer.walk import Walker

# torch.nn's containers, by the names users write and the ones torch defines them under.
SEQUENCE_CONTAINERS = frozenset({"ModuleList", "Sequential", "ParameterList"})
MAPPING_CONTAINERS = frozenset({"ModuleDict", "ParameterDict"})
_CONTAINER_MODULE = "torch.nn.modules.container"
MAX_CONSTRUCTION_DEPTH = 8  # nested constructions (a model of blocks of layers ...)


def container_kind(ref: str | None) -> str | None:
    """`torch.nn.ModuleList` / `torch.nn.modules.container.ModuleList` -> `ModuleList`."""
    if not ref or not ref.startswith("torch.nn."):
        return None
    name = ref.rpartition(".")[2]
    return name if name in SEQUENCE_CONTAINERS or name in MAPPING_CONTAINERS else None


class ObjectModel:
    def __init__(self, walker: Walker) -> None:
        self.walker = weakref.proxy(walker)  # no cycle: a walk's whole state is freed when it ends, not by the GC
        self.project = walker.project
        self.depth = 0
        # eager constructions of a module class from constant arguments, by (class, arguments): the 32 alike
        # blocks of a transformer are one walk of `__init__` and 31 copies of what it built
        self.constructed: dict[tuple[object, ...], Value] = {}

    def resolve_class(self, ref: str) -> tuple[str, ModuleSummary, ClassSummary] | None:
        """A class of the project, an installed package or torch.nn, with its defining name."""
        candidates = [ref]
        if ref.startswith("torch.nn.") and not ref.startswith("torch.nn.modules."):
            candidates.append(self._torch_nn_definition(ref))
        for candidate in candidates:
            found = self.project.klass(candidate)
            if found is not None:
                summary, cls = found
                return qualified(summary, cls.qualname), summary, cls
        return None

    def method_of(self, ref: str, name: str) -> str | None:
        """The function `name` of class `ref` (torch.nn's re-exports resolved), along its MRO."""
        found = self.resolve_class(ref)
        for mod, klass in self.project.mro(found[1], found[2]) if found is not None else ():
            if name in klass.methods:
                return qualified(mod, f"{klass.qualname}.{name}")
        return None

    def builtin_method(self, summary: ModuleSummary, cls: ClassSummary, name: str) -> str | None:
        """The function `name` a torch.nn base of a project class defines (`nn.LayerNorm.forward` for a
        subclass that does not override it, `nn.Embedding.__init__` for `super().__init__(...)`); not of
        torch.nn's containers, which the object model builds and calls natively."""
        for base in self.project.external_bases(summary, cls):
            found = self.method_of(base, name) if is_torch_nn_class(base) and not container_kind(base) else None
            if found is not None:
                return found
        return None

    def is_subclass(self, ref: str, base: str) -> bool | None:
        """Whether class `ref` derives from `base` (re-exports such as `torch.nn.Linear` resolved);
        None when either is not a class the walk can read."""
        found, target = self.resolve_class(ref), self.resolve_class(base)
        if found is None or target is None:
            return None
        wanted = (target[1].display, target[2].qualname)
        return any((m.display, c.qualname) == wanted for m, c in self.project.mro(found[1], found[2]))

    def _torch_nn_definition(self, ref: str) -> str:
        """`torch.nn.Linear` -> `torch.nn.modules.linear.Linear`, through the re-exports of
        torch/nn/modules/__init__.py (read from disk, never imported)."""
        init = self.project.library_module("torch.nn.modules")
        name = ref.rpartition(".")[2]
        return init.imports.get(name, ref) if init is not None else ref

    def instantiate(self, ref: str, args: list[Value], kwargs: dict[str, Value], source: Source | None) -> Value:
        """The instance `ref(*args, **kwargs)` returns, its `__init__` walked."""
        container = container_kind(ref)
        if container is not None:
            return self._container(container, args, source)
        found = self.resolve_class(ref)
        if found is None:
            return self.construct(ref, source)
        defining, summary, cls = found
        is_module = self.project.is_nn_module(summary, cls)
        walked = self.depth < MAX_CONSTRUCTION_DEPTH
        value = Value(V.NN_MODULE if is_module else V.OBJECT, source=source, ref=defining,
                      attrs=self.instance_attrs(summary, cls, constructs=not walked))
        if is_module:
            value.attrs.setdefault("training", V.const(True))  # nn.Module.__init__
        # (one the traced frame builds is walked each time: where its constructor breaks is part of the frame)
        key = _construction_key(defining, args, kwargs) if is_module and walked and self.walker.eager \
            and self.walker.building is None else None
        if key is not None and key in self.constructed:
            return V.snapshot(self.constructed[key], depth=COPIED_DEPTH).with_(source=source)
        if walked:
            self.depth += 1
            chained = self.walker.init_chained
            self.walker.init_chained = False
            try:
                self.run_init(value, summary, cls, args, kwargs)
                if is_module and not self.walker.init_chained and init_of(self.walker, summary, cls) is not None \
                        and set(value.attrs) == {"training"}:
                    value.attrs[V.UNINITIALIZED] = V.const(True)  # nn.Module.__init__ never ran
            finally:
                self.depth -= 1
                self.walker.init_chained = chained
        if key is not None and not self.walker.eager_exhausted():
            self.constructed[key] = V.snapshot(value, depth=COPIED_DEPTH)  # kept as built: later calls copy it
        return value

    def unseen_instance(self, ref: str) -> Value:
        """An instance of a dataclass-like class (annotated fields: a dataclass, transformers'
        `PreTrainedConfig`) built by code not in sight, a config loaded from disk. Each field holds
        a value of its declared scalar type, so reading it in traced code is a baked constant
        whatever the value. Sizes and rates (`num_layers: int`, `layer_norm_epsilon: float`) are
        the checkpoint's, known to the run only; a flag, a mode or an optional feature
        (`is_decoder: bool = False`, `hidden_act: str = "gelu"`, `sliding_window: int | None = None`)
        is the class default, which picks the code path the architecture was written for and which
        checkpoints rarely change. Its `__post_init__` then runs, as the dataclass's `__init__` ends."""
        found = self.resolve_class(ref)
        if found is None or self.project.is_nn_module(found[1], found[2]):
            return V.unknown()
        defining, summary, cls = found
        attrs: dict[str, Value] = {}
        for _, klass in reversed(self.project.mro(summary, cls)):
            for name in klass.fields:
                attrs[name] = _unseen_field(klass.field_types.get(name), klass.class_attrs.get(name))
        if not attrs:
            return V.unknown()
        value = Value(V.OBJECT, ref=defining, attrs=attrs)
        post_init = post_init_of(self.project, summary, cls)
        if post_init is not None and self.depth < MAX_CONSTRUCTION_DEPTH:
            self.depth += 1
            try:
                self._run_method(value, summary, cls, post_init, [], {})  # what the dataclass's __init__ ends with
            finally:
                self.depth -= 1
        return value

    def _container(self, kind: str, args: list[Value], source: Source | None) -> Value:
        ref = f"{_CONTAINER_MODULE}.{kind}"  # the defining name, however the user spelled the class
        if kind in MAPPING_CONTAINERS:
            given = args[0] if args else Value(V.DICT, keys=[], items=[])
            keys = given.keys if given.kind == V.DICT else None
            items = given.items if given.kind == V.DICT else None
            return Value(V.NN_MODULE, source=source, ref=ref, keys=keys, items=items, attrs={"training": V.const(True)})
        if kind == "Sequential" and len(args) == 1 and args[0].kind == V.DICT:
            # `nn.Sequential(OrderedDict(c_fc=..., gelu=...))`: children by name, run in order
            return Value(V.NN_MODULE, source=source, ref=ref, keys=args[0].keys, items=args[0].items,
                         attrs={"training": V.const(True)})
        items, sample = container_items(kind, args)
        return Value(V.NN_MODULE, source=source, ref=ref, items=items, attrs={"training": V.const(True)},
                     sample=sample)

    def construct(self, callee: str, source: Source | None) -> Value:
        """`Config()` / `nn.Linear(4, 4)` / `torch.randn(8)` written at module or class level."""
        found = self.project.klass(callee)
        if found is not None:
            summary, cls = found
            kind = V.NN_MODULE if self.project.is_nn_module(summary, cls) else V.OBJECT
            ref = f"{summary.module}.{cls.qualname}" if summary.module else cls.qualname
            return Value(kind, source=source, ref=ref, attrs=self.instance_attrs(summary, cls))
        if callee in ("int", "float", "bool", "str"):  # a scalar whose value only the run knows
            return Value(V.CONST, source=source, pytype=callee, confidence="medium")
        if callee.startswith("torch.nn.") and callee.rpartition(".")[2][:1].isupper():
            if callee.rpartition(".")[2] in ("Parameter", "Buffer"):
                return Value(V.TENSOR, source=source)
            return Value(V.NN_MODULE, source=source, ref=callee)
        if callee.startswith("torch.") and callee.rpartition(".")[2][:1].islower():
            return Value(V.TENSOR, source=source)
        made_by = self._factory_called(callee)
        if made_by is not None:  # `logger = logging.get_logger(__name__)`, a wrapper of `logging.getLogger`
            return Value(V.UNKNOWN, source=source, ref=made_by, pytype=breaks.factory_type(made_by), confidence="low")
        # an instance of a library class: remembered by its class for with-statements and notes,
        # and by its type (pytype) for method calls
        return Value(V.UNKNOWN, source=source, ref=callee, pytype=breaks.instance_type(callee), confidence="low")

    def _factory_called(self, callee: str) -> str | None:
        """The factory (`logging.getLogger`) a function returns the result of, through wrappers."""
        for _ in range(3):
            found = self.project.function(callee)
            if found is None or found[1].made_by is None:
                return None
            callee = self.project.qualify(found[0], found[1].made_by)
            if breaks.factory_type(callee) is not None:
                return callee
        return None

    def instance_attrs(self, summary: ModuleSummary, cls: ClassSummary, constructs: bool = True) -> dict[str, Value]:
        """The attributes `__init__` stores, as the summary read them; the objects it builds
        (`self.lin = nn.Linear(...)`) only when `constructs`: an `__init__` about to be walked builds
        them itself, with its real arguments."""
        attrs: dict[str, Value] = {}
        for mod, klass in reversed(self.project.mro(summary, cls)):
            for name, lit in klass.init_attrs.items():
                if lit.kind == V.CALL and not constructs:
                    continue
                attrs[name] = self.walker.materialize(lit, mod, None, None) if lit.kind != V.NAME else V.unknown()
                attrs[name].confidence = lit.confidence if lit.confidence != "high" else attrs[name].confidence
            if is_dataclass_like(self.project, mod, klass):  # its fields; other class attributes stay the class's
                for name in klass.fields:
                    if name in klass.class_attrs:
                        attrs[name] = self._field_default(klass.class_attrs[name], mod)
        return attrs

    def _field_default(self, lit: Value, summary: ModuleSummary) -> Value:
        """A dataclass field's default; `field(default_factory=make_tasks)` calls the factory for
        each instance (the summary holds it as a call with no arguments)."""
        if lit.kind == V.CALL and lit.ref and lit.items == [] and not lit.attrs:
            ref = self.project.qualify(summary, lit.ref)
            found = self.project.function(ref)
            if found is not None and found[1].returns is None:
                return self.call_eagerly(ref)
        return self.walker.materialize(lit, summary, None, None)

    def call_eagerly(self, ref: str) -> Value:
        """What a project function returns when Python calls it outside the traced frame (a
        default factory): walked in construction mode, no event recorded."""
        from vtlint.analyzer.walk import MODULE_FRAME, Act, WalkAborted  # the walk imports this module

        found = self.project.function(ref)
        parsed = self.project.parsed(found[0].display) if found is not None else None
        node = parsed.functions.get(found[1].qualname) if parsed is not None and found is not None else None
        if parsed is None or node is None:
            return V.unknown()
        walker = self.walker
        walker.eager += 1
        graph_ops = walker.frame.graph_ops
        try:
            return walker.call_user(Value(V.FUNC, ref=ref), [], {}, Act(parsed, MODULE_FRAME, {}), node)
        except WalkAborted[:-1]:  # not TooComplex: the entry's own budget still applies
            return V.unknown()
        finally:
            walker.eager -= 1
            walker.frame.graph_ops = graph_ops

    def run_init(self, value: Value, summary: ModuleSummary, cls: ClassSummary, args: list[Value],
                 kwargs: dict[str, Value]) -> None:
        """`__init__` of an object built outside the traced frame, walked in construction
        mode: its stores fill `value.attrs`; no guard, break or graph op is recorded."""
        if init_of(self.walker, summary, cls) is None and is_dataclass_like(self.project, summary, cls):
            extra = generated_init(self.project, value, summary, cls, args, kwargs)
            post_init = post_init_of(self.project, summary, cls)
            if post_init is not None:
                self._run_method(value, summary, cls, post_init, [], extra)
            return
        init = init_of(self.walker, summary, cls)
        if init is not None:
            self._run_method(value, summary, cls, init, args, kwargs)
        elif is_dict_subclass(self.project, summary, cls):
            fill_dict_storage(value, args, kwargs)

    def _run_method(self, value: Value, summary: ModuleSummary, cls: ClassSummary, method: str, args: list[Value],
                    kwargs: dict[str, Value]) -> None:
        from vtlint.analyzer.walk import Act, WalkAborted  # the walk imports this module

        walker = self.walker
        parsed = self.project.parsed(summary.display)
        node = parsed.classes.get(cls.qualname) if parsed is not None else None
        if parsed is None or node is None:
            return
        walker.eager += 1
        graph_ops = walker.frame.graph_ops
        try:
            walker.call_user(Value(V.FUNC, ref=method, bound_self=value), args, dict(kwargs),
                           Act(parsed, cls.qualname, {}), node)
        except WalkAborted[:-1]:  # not TooComplex: the entry's own budget still applies
            pass
        finally:
            walker.eager -= 1
            walker.frame.graph_ops = graph_ops


def _unseen_field(scalar: str | None, default: Value | None) -> Value:
    if default is not None and default.kind == V.CONST and default.known and default.value is None:
        return V.const(None).with_(confidence="medium")  # an optional feature the architecture leaves off
    if scalar is None:
        return V.unknown()
    if scalar in ("bool", "str") and default is not None and default.kind == V.CONST and default.known \
            and type(default.value).__name__ == scalar:
        return V.const(default.value).with_(confidence="medium")
    return Value(V.CONST, pytype=scalar, confidence="medium")


def container_of(project: Project, module: Value) -> str | None:
    """The torch.nn container a module is, by its class or a base (`class ConvNormAct(nn.Sequential)`)."""
    kind = container_kind(module.ref)
    found = project.klass(module.ref or "") if kind is None and module.ref else None
    for _, klass in project.mro(*found) if found is not None else ():
        kind = next((k for base in klass.bases if (k := container_kind(base))), None)
        if kind is not None:
            break
    return kind


def container_items(kind: str, args: list[Value]) -> tuple[list[Value] | None, Value | None]:
    """The children a container's constructor is given: `Sequential(a, b)`, `ModuleList([a, b])`."""
    if kind == "Sequential":
        return list(args), None
    if args:
        items = list(args[0].items) if args[0].kind in (V.LIST, V.TUPLE) and args[0].items is not None else None
        return items, args[0].sample if items is None else None
    return [], None


def children(container: Value) -> list[Value] | None:
    """A ModuleList's / Sequential's / ModuleDict's children, each with its `_modules` Source. Of a
    list of unknown length built from one expression (`[Block(cfg) for _ in range(cfg.n_layer)]`),
    the first child: a model has at least one layer, and every layer runs the same code."""
    if container.items is None:
        return [child(container, "0", container.sample)] if container.sample is not None else None
    keys = container.keys if container.keys is not None else [str(i) for i in range(len(container.items))]
    return [child(container, str(k), item) for k, item in zip(keys, container.items, strict=True)]


def child(container: Value, key: str, item: Value) -> Value:
    if item.source is not None or container.source is None:
        return item
    return item.with_(source=ModuleChildSource(container.source, key))


# how deep a copy of a memoized construction goes: a module tree is rarely deeper, and past it the copy shares
COPIED_DEPTH = 48
_PLAIN = (int, float, str, bool, type(None))


def _construction_key(ref: str, args: list[Value], kwargs: dict[str, Value]) -> tuple[object, ...] | None:
    """A construction's class and constant arguments, when every argument is a plain constant (an object
    passed in may differ in what the constructor reads from it)."""
    def plain(value: Value) -> object:
        if value.kind == V.CONST and value.known and isinstance(value.value, _PLAIN):
            return (type(value.value).__name__, value.value)
        if value.kind == V.TUPLE and value.items is not None:
            return tuple(plain(i) for i in value.items)
        raise _NotPlain
    try:
        return (ref, tuple(plain(a) for a in args), tuple(sorted((k, plain(v)) for k, v in kwargs.items())))
    except _NotPlain:
        return None


class _NotPlain(Exception):
    pass
