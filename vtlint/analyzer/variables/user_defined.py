"""UserDefinedClassVariable and UserDefinedObjectVariable: the project's (or a package's) own
classes and their instances, attributes looked up along the MRO as Python does."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from vtlint.analyzer import breaks
from vtlint.analyzer import values as V
from vtlint.analyzer.sources import AttrSource, ModuleChildSource, NNModuleSource, Source, TypeAttrSource, attr_source
from vtlint.analyzer.summary import MODELLED_DECORATORS, ClassSummary, ModuleSummary
from vtlint.analyzer.values import Value
from vtlint.analyzer.variables import versions
from vtlint.analyzer.variables.dicts import dict_of
from vtlint.analyzer.variables.functions import AUTOGRAD_FUNCTION_BASES
from vtlint.analyzer.variables.optimizer import base_method, eager_step, is_optimizer, read_param_groups
from vtlint.trace import Action

if TYPE_CHECKING:
    from vtlint.analyzer.index import Project
    from vtlint.analyzer.walk import Act, Walker

# nn.Module's own methods that build the module tree or set it up (see NNModuleVariable.call_method).
MODULE_METHODS = frozenset({"register_buffer", "register_parameter", "add_module", "register_module", "append",
                            "extend", "insert", "update", "keys", "values", "items", "children", "compile",
                            "train", "eval", "to", "cuda", "cpu", "float", "half", "double", "bfloat16",
                            "requires_grad_", "zero_grad"})


# ... and those the eager run models for the calling script only (`for p in model.backbone.parameters()`).
EAGER_MODULE_METHODS = frozenset({"parameters", "named_parameters", "modules", "named_modules", "children",
                                  "named_children"})
# ... of which Dynamo traces the module tree, each submodule with its Source (`for m in self.modules()`).
TRACED_MODULE_METHODS = frozenset({"modules", "named_modules", "children", "named_children"})


def qualified(summary: ModuleSummary, qualname: str) -> str:
    return f"{summary.module}.{qualname}" if summary.module else qualname


def is_dataclass(cls: ClassSummary) -> bool:
    return any(d.split(".")[-1] == "dataclass" for d in cls.decorators)


def method_kind(summary: ModuleSummary, cls: ClassSummary, name: str) -> str | None:
    """"classmethod" or "staticmethod" when the method is decorated so (its binding differs)."""
    found = summary.functions.get(f"{cls.qualname}.{name}")
    for decorator in found.decorators if found is not None else ():
        if decorator.rpartition(".")[2] in ("classmethod", "staticmethod"):
            return decorator.rpartition(".")[2]
    return None


def init_of(tx: Walker, summary: ModuleSummary, cls: ClassSummary) -> str | None:
    """The `__init__` Python runs for `cls()`: the first along the MRO (one a class decorator set first)."""
    for mod, klass in tx.project.mro(summary, cls):
        stored = tx.class_dict(mod, klass).get("__init__")
        if stored is not None and stored.kind == V.FUNC:
            return stored.ref
        if "__init__" in klass.methods:
            return qualified(mod, f"{klass.qualname}.__init__")
        if is_dataclass(klass):  # `@dataclass` generated one on the class itself, before a base's
            return None
    return tx.objects.builtin_method(summary, cls, "__init__")


def is_namedtuple(cls: ClassSummary) -> bool:
    return any(base.rpartition(".")[2] == "NamedTuple" for base in cls.bases)


def is_dataclass_like(project: Project, summary: ModuleSummary, cls: ClassSummary) -> bool:
    """A @dataclass, a subclass of a class marked `@dataclass_transform` (PEP 681: transformers'
    `PreTrainedConfig` makes each subclass a dataclass in `__init_subclass__`), or a `typing.NamedTuple`
    (its generated `__new__` takes the annotated fields in order, with their defaults)."""
    return is_dataclass(cls) or is_namedtuple(cls) or any(
        d.rpartition(".")[2] == "dataclass_transform" for _, klass in project.mro(summary, cls)[1:] for d in klass.decorators)


def field_names(project: Project, summary: ModuleSummary, cls: ClassSummary) -> list[str]:
    """A dataclass's fields in `__init__` order: a base's first."""
    return list(dict.fromkeys(name for _, klass in reversed(project.mro(summary, cls)) for name in klass.fields))


def in_instance_dict(project: Project, value: Value, name: str) -> bool:
    """Whether an attribute the walk knows of an object lives in its `__dict__`: a dataclass field, or
    a name no class of its MRO defines (it was assigned on the instance); not a class attribute."""
    found = project.klass(value.ref or "")
    if found is None:
        return False
    mro = project.mro(*found)
    return any(name in klass.fields for _, klass in mro) or not any(name in klass.class_attrs for _, klass in mro)


def generated_init(project: Project, value: Value, summary: ModuleSummary, cls: ClassSummary, args: list[Value],
                   kwargs: dict[str, Value]) -> dict[str, Value]:
    """A dataclass's generated `__init__`: its fields by position, then keywords; what it hands to
    `__post_init__` (the keywords that are not fields, where the class accepts them)."""
    extra: dict[str, Value] = {}
    if passes_extra_kwargs(project, summary, cls):
        names = set(field_names(project, summary, cls))
        extra = {k: v for k, v in kwargs.items() if k not in names}
        kwargs = {k: v for k, v in kwargs.items() if k in names}
    for name, arg in [*zip(field_names(project, summary, cls), args), *kwargs.items()]:
        value.attrs[name] = arg.with_(source=None)
    return extra


def passes_extra_kwargs(project: Project, summary: ModuleSummary, cls: ClassSummary) -> bool:
    """huggingface_hub's `@strict(accept_kwargs=True)` on the class or a base (transformers' `PreTrainedConfig`,
    whose `__init_subclass__` wraps each subclass alike): by its documented contract the dataclass's `__init__`
    takes any keyword, the fields are set and the others are handed to `__post_init__(**kwargs)`
    (`experts_implementation="eager"` reaches the config's own setter there)."""
    for mod, klass in project.mro(summary, cls):
        if not MODELLED_DECORATORS.intersection(klass.decorators):
            continue
        parsed = project.parsed(mod.display)
        node = parsed.classes.get(klass.qualname) if parsed is not None else None
        for decorator in node.decorators if node is not None else ():
            call = decorator.decorator
            if isinstance(call, cst.Call) and any(
                    arg.keyword is not None and arg.keyword.value == "accept_kwargs"
                    and isinstance(arg.value, cst.Name) and arg.value.value == "True" for arg in call.args):
                return True
    return False


def post_init_of(project: Project, summary: ModuleSummary, cls: ClassSummary) -> str | None:
    """The `__post_init__` a dataclass's generated `__init__` ends with."""
    return next((qualified(mod, f"{klass.qualname}.__post_init__")
                 for mod, klass in project.mro(summary, cls) if "__post_init__" in klass.methods), None)


# dict's own classes, as a class statement names them: a subclass keeps its items in the dict itself
DICT_BASES = frozenset({"dict", "OrderedDict", "collections.OrderedDict", "typing.OrderedDict"})
# dict methods the walk models on that storage (`super().__getitem__(key)` in an override)
DICT_STORAGE_METHODS = frozenset({"__getitem__", "__setitem__", "get", "keys", "values", "items", "__contains__"})


def is_dict_subclass(project: Project, summary: ModuleSummary, cls: ClassSummary) -> bool:
    return any(base in DICT_BASES for base in project.external_bases(summary, cls))


def fill_dict_storage(value: Value, args: list[Value], kwargs: dict[str, Value]) -> None:
    """`ClassInstantier(ACT2CLS)`: dict's own `__init__` copies the mapping into the object, which
    Dynamo tracks as a UserDefinedDictVariable (its items in `_dict_vt`); here in `keys`/`items`."""
    given = dict_of(args, kwargs)
    if given.kind == V.DICT:
        value.keys, value.items = list(given.keys or []), list(given.items or [])


def dict_storage(value: Value) -> Value | None:
    """The dict a dict subclass's instance holds, as a ConstDictVariable under the object's Source."""
    if value.keys is None or value.items is None:
        return None
    return Value(V.DICT, keys=value.keys, items=value.items, source=value.source)


class UserDefinedClassVariable(Value):
    tracks = (V.CLASS,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        found = tx.project.klass(self.ref or "")
        if found is None:
            return V.unknown()
        summary, cls = found
        if name == "__dataclass_fields__" and is_dataclass_like(tx.project, summary, cls):
            # `{k: v for k, v in raw.items() if k not in cls.__dataclass_fields__}`: the field names
            names = field_names(tx.project, summary, cls)
            return Value(V.DICT, keys=names, items=[V.unknown() for _ in names])
        if name in ("__name__", "__qualname__"):  # `f"{args[0].__class__.__name__}.{name}"`: a string Dynamo guards
            text = cls.qualname if name == "__qualname__" else cls.qualname.rpartition(".")[2]
            return V.const(text).with_(source=attr_source(self.source, name))
        if name == "__module__" and summary.module:  # `sys.modules.get(cls.__module__)`
            return V.const(summary.module).with_(source=attr_source(self.source, name))
        if name == "__dict__":  # `cls.__dict__.get("config_class")`: what the class itself defines
            return own_namespace(tx, summary, cls)
        external = tx.project.external_bases(summary, cls)
        if name == "apply" and AUTOGRAD_FUNCTION_BASES.intersection(external):
            return Value(V.AUTOGRAD_APPLY, ref=self.ref)
        if any(b.startswith("enum.") or b in ("Enum", "IntEnum") for b in external):
            return Value(V.ENUM, value=f"{cls.qualname}.{name}", ref=self.ref, source=attr_source(self.source, name))
        for mod, klass in tx.project.mro(summary, cls):
            stored = tx.class_dict(mod, klass).get(name)
            if stored is not None:
                return stored
            if name in klass.methods:
                got = descriptor_get(tx, mod, klass, name, V.const(None), self, act, node)
                if got is not None:
                    return got
                method = Value(V.FUNC, ref=qualified(mod, f"{klass.qualname}.{name}"))
                return method.with_(bound_self=self) if method_kind(mod, klass, name) == "classmethod" else method
            if name in klass.class_attrs:
                return tx.materialize(klass.class_attrs[name], mod, attr_source(self.source, name), None)
        return V.unknown()

    def call_function(self, tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act,
                      node: cst.Call) -> Value:
        """A class called in the frame. A plain object's `__init__` is traced (inlined, its reads
        guarded); an nn.Module's is built as the object model builds it."""
        if not self.ref:  # a class the frame defined: an object of it (its `__init__` not walked)
            return Value(V.OBJECT, attrs={V.FRAME_CLASS: self.attrs[V.FRAME_CLASS]}) if V.FRAME_CLASS in self.attrs \
                else V.unknown()
        if tx.eager and self.ref in versions.PARSERS:
            return versions.parsed_version(args)  # `Version("2.6.0")`: a constant that compares as it does
        found = tx.project.klass(self.ref)
        if found is None or tx.project.is_nn_module(*found):
            return tx.construct_module(self.ref, args, kwargs, act, node)
        summary, cls = found
        refused = None if tx.eager else breaks.decide_class_call(cls.decorators) or breaks.decide_typed_dict(
            tx.project.external_bases(summary, cls), any(k.optional_keys for _, k in tx.project.mro(summary, cls)))
        if refused is not None:
            tx.graph_break(act, node, refused, cls.qualname)
            return V.unknown()
        value = Value(V.OBJECT, ref=qualified(summary, cls.qualname),
                      attrs=tx.objects.instance_attrs(summary, cls, constructs=False), cls_source=self.source)
        if init_of(tx, summary, cls) is None and is_dataclass_like(tx.project, summary, cls):
            generated = any(is_dataclass(klass) for _, klass in tx.project.mro(summary, cls))
            if generated:  # `@dataclass` wrote `__init__` from source text: a code object of `<string>`
                tx.emit(Action.INLINE, act, node, callee=f"{summary.module}.__create_fn__.<locals>.__init__",
                        variable_tracker=V.FUNC, detail={"qualname": "__create_fn__.<locals>.__init__"})
            extra = generated_init(tx.project, value, summary, cls, args, kwargs)
            post_init = post_init_of(tx.project, summary, cls)
            if post_init is not None:
                mark = len(tx.events)
                tx.call_user(Value(V.FUNC, ref=post_init, bound_self=value), [], extra, act, node)
                if generated and mark < len(tx.events) and tx.events[mark].action is Action.INLINE:
                    tx.drop_event(mark)  # called from the generated `__init__`, a line of no file
            return value
        init = init_of(tx, summary, cls)
        if init is not None:
            tx.call_user(Value(V.FUNC, ref=init, bound_self=value), args, kwargs, act, node)
        elif is_dict_subclass(tx.project, summary, cls):
            fill_dict_storage(value, args, kwargs)
        return value


def own_namespace(tx: Walker, summary: ModuleSummary, cls: ClassSummary) -> Value:
    """A class's `__dict__`: its body's attributes and methods, after what creating it stored there."""
    namespace = {name: tx.materialize(value, summary, None, None) for name, value in cls.class_attrs.items()}
    namespace.update({name: Value(V.FUNC, ref=qualified(summary, f"{cls.qualname}.{name}")) for name in cls.methods})
    namespace.update(tx.class_dict(summary, cls))
    return Value(V.DICT, keys=list(namespace), items=list(namespace.values()))


# what AutogradFunctionVariable.call_method traces on a Function object, besides static and class methods
_AUTOGRAD_FUNCTION_METHODS = frozenset({"apply", "backward", "forward"})


def _plain_autograd_method(project: Project, summary: ModuleSummary, cls: ClassSummary, name: str) -> bool:
    """A plain method (not static, not a class method) of a torch.autograd.Function subclass of the project."""
    if name in _AUTOGRAD_FUNCTION_METHODS or not AUTOGRAD_FUNCTION_BASES.intersection(
            project.external_bases(summary, cls)):
        return False
    return any(name in k.methods and method_kind(m, k, name) is None for m, k in project.mro(summary, cls))


class UserDefinedObjectVariable(Value):
    tracks = (V.OBJECT,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        if not (self.ref and tx.project.klass(self.ref)):
            return V.unknown()
        if act is not None and node is not None:
            self.custom_getattribute(tx, act, node)
            summary, cls = tx.project.klass(self.ref)  # type: ignore[misc]
            if not tx.eager and _plain_autograd_method(tx.project, summary, cls, name):
                # the method runs eagerly, a frame of its own; the Function object cannot be rebuilt for it
                tx.compile_callee(Value(V.FUNC, ref=f"{self.ref}.{name}"), [self], act)
                tx.graph_break(act, node, breaks.decide_autograd_function_method(), f"{cls.qualname}.{name}")
            if is_namedtuple(cls):  # a tuple underneath: Dynamo guards its length (measured)
                tx.length_check(self, act, node, fields=len(field_names(tx.project, summary, cls)))
        if name == "__dict__" and self.source is None and not self.opaque:
            # `self.__dict__.get(field.name)` on an object built here: what its attributes hold
            return Value(V.DICT, keys=list(self.attrs), items=list(self.attrs.values()))
        name = self.mapped_name(tx, name)
        getter = self.property_getter(tx, name)
        if getter is not None and act is not None and node is not None:
            mark = len(tx.events)
            result = tx.call_user(getter, [], {}, act, node)  # type: ignore[arg-type]
            if self.overrides(tx) and mark < len(tx.events) and tx.events[mark].action is Action.INLINE:
                # read through the class's `__getattribute__`: the getter runs inside it, not at this line
                tx.drop_event(mark)
            return result
        found = self.instance_attr(tx, name, act, node)
        if name == "param_groups" and not tx.eager and act is not None and node is not None \
                and is_optimizer(tx.project, self):
            read_param_groups(tx, found, act, node)
        return found

    def call_function(self, tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act,
                      node: cst.Call) -> Value:
        return self.call_dunder(tx, "__call__", args, kwargs, act, node) or V.unknown()

    def getitem(self, tx: Walker, index: Value, act: Act, node: cst.CSTNode) -> Value:
        return self.call_dunder(tx, "__getitem__", [index], {}, act, node) or V.unknown()

    def unpack_var_sequence(self, tx: Walker, act: Act, node: cst.CSTNode) -> list[Value] | None:
        """`for c in view` over a `collections.abc.Sequence` of the project (`config.per_layer_config`):
        Dynamo's sequence iterator calls `__getitem__(0)`, `(1)`, ... up to the IndexError, the
        calls themselves unreported; `__len__` here tells the walk where that is."""
        found = tx.project.klass(self.ref or "")
        if found is None or not _iterates_by_index(tx.project, *found):
            return None
        root = act.depth == 0 and not tx.eager
        tx.in_iteration += root
        try:
            length = self._silent_dunder(tx, "__len__", [], act, node)
            if length is None or length.kind != V.CONST or not isinstance(length.value, int) \
                    or not 0 <= length.value <= 64:
                return None
            return [self._silent_dunder(tx, "__getitem__", [V.const(i)], act, node) or V.unknown()
                    for i in range(length.value)]
        finally:
            tx.in_iteration -= root

    def _silent_dunder(self, tx: Walker, name: str, args: list[Value], act: Act, node: cst.CSTNode) -> Value | None:
        mark = len(tx.events)
        result = self.call_dunder(tx, name, args, {}, act, node)
        if mark < len(tx.events) and tx.events[mark].action is Action.INLINE:
            tx.drop_event(mark)  # the iterator's own call: not one torch reports
        return result

    def call_dunder(self, tx: Walker, name: str, args: list[Value], kwargs: dict[str, Value], act: Act,
                    node: cst.CSTNode) -> Value | None:
        """`obj(...)`, `obj[k]`, `k in obj`: the class's method (its own or a `collections.abc` mixin's),
        which Dynamo inlines; None when the class defines none the walk can read."""
        method = self.instance_attr(tx, name) if self.ref and tx.project.klass(self.ref) else None
        if method is None or method.kind != V.FUNC:
            return None
        return tx.call_user(method, args, kwargs, act, node)  # type: ignore[arg-type]

    def overrides(self, tx: Walker, dunder: str = "__getattribute__") -> bool:
        """Whether the object's class (or a base of the project) defines `dunder`."""
        found = tx.project.klass(self.ref or "")
        return found is not None and any(dunder in klass.methods for _, klass in tx.project.mro(*found))

    def mapped_name(self, tx: Walker, name: str, dunder: str = "__getattribute__") -> str:
        """The name a `__getattribute__` override (a read) or a `__setattr__` one (a store) maps `name` to
        through the class's `attribute_map` (a transformers config: `config.num_hidden_layers` is
        `config.n_layer`; `self.layer_types = [...]` sets `layers_block_type`), as Python runs it."""
        if name == "attribute_map" or not self.overrides(tx, dunder):
            return name
        for _, klass in tx.project.mro(*tx.project.klass(self.ref or "")):  # type: ignore[misc]
            mapping = klass.class_attrs.get("attribute_map")
            if mapping is None:
                continue
            if mapping.kind != V.DICT or mapping.keys is None or mapping.items is None:
                return name
            for key, target in zip(mapping.keys, mapping.items, strict=False):
                if key == name and target.known and isinstance(target.value, str):
                    return target.value
            return name
        return name

    def custom_getattribute(self, tx: Walker, act: Act, node: cst.CSTNode) -> None:
        """A class of the project defining `__getattribute__` (a config mapping attribute names): Dynamo
        inlines it on every attribute read. The walk records that call and looks the name up as the
        generic lookup does, after its `attribute_map` (`mapped_name`)."""
        for mod, klass in tx.project.mro(*tx.project.klass(self.ref or "")):  # type: ignore[misc]
            if "__getattribute__" in klass.methods:
                qualname = f"{klass.qualname}.__getattribute__"
                parsed = tx.project.parsed(mod.display)
                if parsed is not None and (mod.display, qualname) not in tx.inlining:
                    tx.emit(Action.INLINE, act, node, callee=tx.callee_name(parsed, qualname),
                            variable_tracker=V.FUNC, detail={"qualname": qualname})
                return

    def property_getter(self, tx: Walker, name: str) -> Value | None:
        """A `@property` of the object's class: reading it calls the getter, which Dynamo inlines (a data
        descriptor of the class comes before the instance's `__dict__`)."""
        for mod, klass in tx.project.mro(*tx.project.klass(self.ref or "")):  # type: ignore[misc]
            if name in klass.methods:
                getter = mod.functions.get(f"{klass.qualname}.{name}")
                if getter is None or "property" not in getter.decorators:
                    return None
                return Value(V.FUNC, ref=qualified(mod, f"{klass.qualname}.{name}"), bound_self=self)
        return None

    def instance_attr(self, tx: Walker, name: str, act: Act | None = None, node: cst.CSTNode | None = None) -> Value:
        """`obj.name` as Python finds it: the instance's `__dict__`, then the class's MRO. The
        Source says where Dynamo reads it: `L['self'].eps`, a child module's `_modules` entry,
        a class attribute through the type."""
        found = tx.project.klass(self.ref or "")
        if found is None:
            return V.unknown()
        summary, cls = found
        is_module = self.kind == V.NN_MODULE
        if name == "__class__":
            # one class object, however many instances lead to it: guarded through the first Source
            # (none when `type(obj)` reached it first)
            source = attr_source(self.source, name)
            if source is not None:
                source = tx.class_attr_sources.setdefault((summary.display, cls.qualname, name), source)
            return Value(V.CLASS, ref=qualified(summary, cls.qualname), source=source)
        if tx.eager and (step := eager_step(tx.project, self, name)) is not None:
            return step
        if name in self.attrs:
            value = self.attrs[name]
            if value.source is not None or self.source is None or (id(self.attrs), name) in tx.stored:
                return value
            if value.kind == V.NN_MODULE:
                # one module object under two names (`self.theta_b_fc = self.theta_f_fc = nn.Linear(...)`):
                # Dynamo reuses the VariableTracker of its first access, and guards through that Source
                first = tx.object_sources.setdefault(id(value.attrs), ModuleChildSource(self.source, name))
                return value.with_(source=first)
            owner = NNModuleSource(self.source) if is_module and not self.source.is_nn_module() else self.source
            source: Source = AttrSource(owner, name)
            if value.kind == V.OBJECT:  # so is one config object every layer holds (`self.attn.config.k`
                source = tx.object_sources.setdefault(id(value.attrs), source)  # is `L['self'].config.k`)
            return value.with_(source=source, owner=self.ref)
        for index, (mod, klass) in enumerate(tx.project.mro(summary, cls)):
            stored = tx.class_dict(mod, klass).get(name)
            if stored is not None:  # a function a class decorator set: a method of the instances
                return stored.with_(bound_self=self, source=attr_source(self.source, name)) \
                    if stored.kind == V.FUNC else stored
            if name in klass.methods:
                got = descriptor_get(tx, mod, klass, name, self, Value(V.CLASS, ref=qualified(summary, cls.qualname)),
                                     act, node)
                if got is not None:
                    return got
                method = Value(V.FUNC, ref=qualified(mod, f"{klass.qualname}.{name}"))
                kind = method_kind(mod, klass, name)
                # the class dict holds a staticmethod/classmethod object: the function is its `__func__`
                wrapped = attr_source(attr_source(self.source, name), "__func__")
                if kind == "staticmethod":
                    return method.with_(source=wrapped)
                if kind == "classmethod":
                    return method.with_(bound_self=Value(V.CLASS, ref=qualified(summary, cls.qualname)),
                                        source=wrapped)
                return method.with_(bound_self=self, source=attr_source(self.source, name))
            if name in klass.class_attrs and self.opaque and name in klass.fields:
                # a field of an instance known by its class only: its type from the default, not its value
                default = klass.class_attrs[name]
                pytype = default.pytype if default.kind == V.CONST else None
                return Value(V.CONST if pytype else V.UNKNOWN, source=attr_source(self.source, name), pytype=pytype,
                             confidence="medium")
            if name in klass.class_attrs:
                value = tx.materialize(klass.class_attrs[name], mod, None, None)
                if self.source is None and self.cls_source is not None:
                    return value.with_(source=AttrSource(self.cls_source, name))
                if self.source and value.kind in (V.CONST, V.LIST, V.TUPLE, V.DICT):
                    # guarded through the class dict that holds it (`dict(type(L['self']).__mro__[1].__dict__)
                    # ['flag']`), once: every instance reads the same dict, whose VariableTracker Dynamo
                    # reuses, so the guard keeps the first reader's Source (measured, objects and modules)
                    first = tx.class_attr_sources.setdefault((mod.display, klass.qualname, name),
                                                             TypeAttrSource(self.source, name, index))
                    value = value.with_(source=first)
                return value
        storage = dict_storage(self) if name in DICT_STORAGE_METHODS else None
        if storage is not None:  # `self.items()` in a dict subclass's own method: dict's, on its items
            return Value(V.LIB, ref=f"dict.{name}", bound_self=storage)
        builtin = tx.objects.builtin_method(summary, cls, name) if is_module else None
        if builtin is not None:  # `self._conv_forward(...)` in a subclass of nn.Conv2d: torch.nn's own method
            return Value(V.FUNC, ref=builtin, bound_self=self, source=attr_source(self.source, name))
        if is_module and (name in MODULE_METHODS or name in TRACED_MODULE_METHODS
                          or (tx.eager and name in EAGER_MODULE_METHODS)):
            return Value(V.LIB, ref=f"torch.nn.Module.{name}", bound_self=self)
        return base_method(tx.project, self, name) or Value(V.UNKNOWN, source=attr_source(self.source, name),
                                                              confidence="low")


def descriptor_get(tx: Walker, summary: ModuleSummary, cls: ClassSummary, name: str, instance: Value, owner: Value,
                   act: Act | None, node: cst.CSTNode | None) -> Value | None:
    """A method wrapped by a decorator that is a class of the project defining `__get__` (transformers'
    `classproperty`): the class holds that descriptor, its `fget` the function, and reading the name
    calls its `__get__(instance, owner)` (None for a read through the class)."""
    found = summary.functions.get(f"{cls.qualname}.{name}")
    if found is None or act is None or node is None:
        return None
    for decorator in found.decorators:
        wrapper = tx.project.klass(tx.project.qualify(summary, decorator))
        getter = next((qualified(mod, f"{klass.qualname}.__get__") for mod, klass in tx.project.mro(*wrapper)
                       if "__get__" in klass.methods), None) if wrapper is not None else None
        if getter is not None:
            descriptor = Value(V.OBJECT, ref=qualified(wrapper[0], wrapper[1].qualname),  # type: ignore[index]
                               attrs={"fget": Value(V.FUNC, ref=qualified(summary, f"{cls.qualname}.{name}"))})
            return tx.call_user(Value(V.FUNC, ref=getter, bound_self=descriptor), [instance, owner], {}, act,
                                node)  # type: ignore[arg-type]
    return None


def _iterates_by_index(project: Project, summary: ModuleSummary, cls: ClassSummary) -> bool:
    """A class whose `__iter__`, if any, is `collections.abc.Sequence`'s: it iterates by index."""
    defines: dict[str, str] = {}
    for mod, klass in project.mro(summary, cls):
        for name in ("__iter__", "__getitem__", "__len__"):
            if name in klass.methods:
                defines.setdefault(name, mod.module)
    return "__getitem__" in defines and "__len__" in defines and defines.get("__iter__", "collections.abc") == \
        "collections.abc" and defines["__getitem__"] != "collections.abc"
