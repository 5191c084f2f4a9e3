"""UserDefinedClassVariable and UserDefinedObjectVariable: the project's (or a package's) own
classes and their instances, attributes looked up along the MRO as Python does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtlint.analyzer import values as V
from vtlint.analyzer.sources import AttrSource, ModuleChildSource, NNModuleSource, TypeAttrSource, attr_source
from vtlint.analyzer.summary import ClassSummary, ModuleSummary
from vtlint.analyzer.values import Value
from vtlint.trace import Action

if TYPE_CHECKING:
    import libcst as cst

    from vtlint.analyzer.index import Project
    from vtlint.analyzer.walk import Act, Walker

# nn.Module's own methods that build the module tree or set it up (see NNModuleVariable.call_method).
MODULE_METHODS = frozenset({"register_buffer", "register_parameter", "add_module", "register_module", "append",
                            "extend", "insert", "update", "keys", "values", "items", "children", "compile",
                            "train", "eval", "to", "cuda", "cpu", "float", "half", "double", "bfloat16",
                            "requires_grad_", "zero_grad"})


def qualified(summary: ModuleSummary, qualname: str) -> str:
    return f"{summary.module}.{qualname}" if summary.module else qualname


def is_dataclass(cls: ClassSummary) -> bool:
    return any(d.split(".")[-1] == "dataclass" for d in cls.decorators)


def init_of(project: Project, summary: ModuleSummary, cls: ClassSummary) -> str | None:
    """The `__init__` Python runs for `cls()`: the first along the MRO."""
    for mod, klass in project.mro(summary, cls):
        if "__init__" in klass.methods:
            return qualified(mod, f"{klass.qualname}.__init__")
    return None


def dataclass_fields(value: Value, cls: ClassSummary, args: list[Value], kwargs: dict[str, Value]) -> None:
    """A @dataclass's generated `__init__`: fields in declaration order, then keywords."""
    for name, arg in [*zip(cls.class_attrs, args), *kwargs.items()]:
        value.attrs[name] = arg.with_(source=None)


class UserDefinedClassVariable(Value):
    tracks = (V.CLASS,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        found = tx.project.klass(self.ref or "")
        if found is None:
            return V.unknown()
        summary, cls = found
        if any(b.startswith("enum.") or b in ("Enum", "IntEnum") for b in tx.project.external_bases(summary, cls)):
            return Value(V.ENUM, value=f"{cls.qualname}.{name}")
        for mod, klass in tx.project.mro(summary, cls):
            if name in klass.methods:
                return Value(V.FUNC, ref=qualified(mod, f"{klass.qualname}.{name}"))
            if name in klass.class_attrs:
                return tx.materialize(klass.class_attrs[name], mod, attr_source(self.source, name), None)
        return V.unknown()

    def call_function(self, tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act,
                      node: cst.Call) -> Value:
        """A class called in the frame. A plain object's `__init__` is traced (inlined, its reads
        guarded); an nn.Module's is built as the object model builds it."""
        if not self.ref:
            return V.unknown()
        found = tx.project.klass(self.ref)
        if found is None or tx.project.is_nn_module(*found):
            return tx.objects.instantiate(self.ref, args, kwargs, None)
        summary, cls = found
        value = Value(V.OBJECT, ref=qualified(summary, cls.qualname), attrs=tx.objects.instance_attrs(summary, cls))
        init = init_of(tx.project, summary, cls)
        if init is not None:
            tx.call_user(Value(V.FUNC, ref=init, bound_self=value), args, kwargs, act, node)
        elif is_dataclass(cls):
            dataclass_fields(value, cls, args, kwargs)
        return value


class UserDefinedObjectVariable(Value):
    tracks = (V.OBJECT,)

    def truth(self, tx: Walker, act: Act, node: cst.CSTNode, construct: str) -> bool | None:
        return True

    def var_getattr(self, tx: Walker, name: str, act: Act | None, node: cst.CSTNode | None) -> Value:
        if not (self.ref and tx.project.klass(self.ref)):
            return V.unknown()
        if act is not None and node is not None:
            self.custom_getattribute(tx, act, node)
        getter = self.property_getter(tx, name)
        if getter is not None and act is not None and node is not None:
            return tx.call_user(getter, [], {}, act, node)  # type: ignore[arg-type]
        return self.instance_attr(tx, name)

    def call_function(self, tx: Walker, args: list[Value], kwargs: dict[str, Value], act: Act,
                      node: cst.Call) -> Value:
        call = self.instance_attr(tx, "__call__") if self.ref and tx.project.klass(self.ref) else V.unknown()
        return tx.call_user(call, args, kwargs, act, node) if call.kind == V.FUNC else V.unknown()

    def custom_getattribute(self, tx: Walker, act: Act, node: cst.CSTNode) -> None:
        """A class of the project defining `__getattribute__` (a config mapping attribute names): Dynamo
        inlines it on every attribute read. The walk records that call and looks the name up as the
        generic lookup does (the override's own remapping is not modelled)."""
        for mod, klass in tx.project.mro(*tx.project.klass(self.ref or "")):  # type: ignore[misc]
            if "__getattribute__" in klass.methods:
                qualname = f"{klass.qualname}.__getattribute__"
                parsed = tx.project.parsed(mod.display)
                if parsed is not None and (mod.display, qualname) not in tx.inlining:
                    tx.emit(Action.INLINE, act, node, callee=tx.callee_name(parsed, qualname),
                            variable_tracker=V.FUNC, detail={"qualname": qualname})
                return

    def property_getter(self, tx: Walker, name: str) -> Value | None:
        """A `@property` of the object's class: reading it calls the getter, which Dynamo inlines."""
        if name in self.attrs:
            return None
        for mod, klass in tx.project.mro(*tx.project.klass(self.ref or "")):  # type: ignore[misc]
            if name in klass.methods:
                getter = mod.functions.get(f"{klass.qualname}.{name}")
                if getter is None or "property" not in getter.decorators:
                    return None
                return Value(V.FUNC, ref=qualified(mod, f"{klass.qualname}.{name}"), bound_self=self)
        return None

    def instance_attr(self, tx: Walker, name: str) -> Value:
        """`obj.name` as Python finds it: the instance's `__dict__`, then the class's MRO. The
        Source says where Dynamo reads it: `L['self'].eps`, a child module's `_modules` entry,
        a class attribute through the type."""
        found = tx.project.klass(self.ref or "")
        if found is None:
            return V.unknown()
        summary, cls = found
        is_module = self.kind == V.NN_MODULE
        if name in self.attrs:
            value = self.attrs[name]
            if value.source is not None or self.source is None or (id(self.attrs), name) in tx.stored:
                return value
            if value.kind == V.NN_MODULE:
                return value.with_(source=ModuleChildSource(self.source, name))
            owner = NNModuleSource(self.source) if is_module and not self.source.is_nn_module() else self.source
            return value.with_(source=AttrSource(owner, name), owner=self.ref)
        for mod, klass in tx.project.mro(summary, cls):
            if name in klass.methods:
                return Value(V.FUNC, ref=qualified(mod, f"{klass.qualname}.{name}"), bound_self=self,
                             source=attr_source(self.source, name))
            if name in klass.class_attrs and self.opaque and name in klass.fields:
                # a field of an instance known by its class only: its type from the default, not its value
                default = klass.class_attrs[name]
                pytype = default.pytype if default.kind == V.CONST else None
                return Value(V.CONST if pytype else V.UNKNOWN, source=attr_source(self.source, name), pytype=pytype,
                             confidence="medium")
            if name in klass.class_attrs:
                value = tx.materialize(klass.class_attrs[name], mod, None, None)
                if self.source and value.kind in (V.CONST, V.LIST, V.TUPLE, V.DICT):
                    value = value.with_(source=TypeAttrSource(self.source, name))
                return value
        if is_module and name in MODULE_METHODS:
            return Value(V.LIB, ref=f"torch.nn.Module.{name}", bound_self=self)
        return Value(V.UNKNOWN, source=attr_source(self.source, name), confidence="low")
