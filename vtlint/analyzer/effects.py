"""Which decorators change what the traced code reads: the ones the walk runs, as Python's import does.

`@register_activation("silu")` stores the function in a module's dict; `@MODELS.register_module()`
stores the class in its registry object; `@use_experts_implementation` sets `cls.forward` and
`cls.__init__` to wrappers of its own. The walk applies such decorators, so the registry and the
class hold what Python puts there. A decorator that only wraps, renames or documents
(`@auto_docstring(...)`, `@functools.lru_cache()`) is not run: it changes nothing the traced code
reads, and some do a great deal of work for it."""

from __future__ import annotations

import libcst as cst

from vtlint.analyzer.summary import named_params
from vtlint.analyzer.traverse import visit

# Methods that put something into a container.
_MUTATORS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "register", "__setitem__"})


def registers(fn: cst.FunctionDef, *, method: bool) -> bool:
    """Whether `fn` (a decorator or decorator factory, its nested defs included) stores into a
    container it did not make: a module global or closure cell, or, for a `method`, its own object."""
    finder = _Stores(method)
    visit(fn, finder)
    return finder.found


# What a decorator that documents or renames sets: nothing traced code reads.
_METADATA = frozenset({"__doc__", "__name__", "__qualname__", "__module__", "__annotations__", "__signature__",
                       "__wrapped__"})


def patches(fn: cst.FunctionDef) -> bool:
    """Whether `fn` (a class decorator or decorator factory, its nested defs included) sets an
    attribute of an object it is handed (`cls.forward = forward`, `setattr(cls, name, value)`), other
    than a method's own instance (`self.x = ...` in the `__init__` it defines)."""
    finder = _Patches()
    visit(fn, finder)
    return finder.found


class _Patches:
    def __init__(self) -> None:
        self.params: list[set[str]] = []  # each enclosing function's parameters, `self` left out
        self.found = False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.params.append({p.name.value for p in named_params(node)} - {"self"})
        return not self.found

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.params.pop()

    def visit_Assign(self, node: cst.Assign) -> bool:
        self.found |= any(isinstance(t.target, cst.Attribute) and t.target.attr.value not in _METADATA
                          and self._handed(t.target.value) for t in node.targets)
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        if isinstance(node.func, cst.Name) and node.func.value == "setattr" and node.args:
            self.found |= self._handed(node.args[0].value)
        return not self.found

    def _handed(self, target: cst.BaseExpression) -> bool:
        return isinstance(target, cst.Name) and bool(self.params) and target.value in self.params[-1]


class _Stores:
    def __init__(self, method: bool) -> None:
        self.method = method
        self.scopes: list[set[str]] = []  # names bound in each enclosing function
        self.receivers: list[str | None] = []  # each function's first parameter
        self.found = False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        params = named_params(node)
        bound = {p.name.value for p in params}
        for star in (node.params.star_arg, node.params.star_kwarg):
            if isinstance(star, cst.Param):
                bound.add(star.name.value)
        self.scopes.append(bound | _assigned(node.body))
        self.receivers.append(params[0].name.value if params and not self.receivers else None)
        return not self.found

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scopes.pop()
        self.receivers.pop()

    def visit_Assign(self, node: cst.Assign) -> bool:
        self.found |= any(isinstance(t.target, cst.Subscript) and self._outside(t.target.value) for t in node.targets)
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in _MUTATORS and self._outside(func.value):
            self.found = True
        return not self.found

    def _outside(self, target: cst.BaseExpression) -> bool:
        """A container reached from a name the innermost function did not bind, or its own object."""
        root = target
        while isinstance(root, (cst.Attribute, cst.Subscript)):
            root = root.value
        if not isinstance(root, cst.Name) or not self.scopes:
            return False
        if self.method and root.value == self.receivers[0] and root is not target:
            return True  # `self._module_dict[name] = cls` in a registry's method
        return root.value not in self.scopes[-1]


def _assigned(body: cst.BaseSuite) -> set[str]:
    """Names a function body binds with plain assignments (its locals)."""
    names: set[str] = set()

    class Binds:
        def visit_Assign(self, node: cst.Assign) -> bool:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    names.add(target.target.value)
            return False

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            names.add(node.name.value)
            return False

    visit(body, Binds())
    return names
