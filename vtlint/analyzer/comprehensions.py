"""Comprehensions as frames of their own. Before Python 3.12 (PEP 709) a list, set or dict
comprehension is a function called with the iterator over its outermost iterable (`.0`). Traced
code inlines it; a frame Dynamo skipped runs it eagerly, and then it is a frame Dynamo compiles,
if it passes convert_frame's `has_tensor_in_frame`: a global of its code is torch or a torch
module, or one of its locals (`.0`, the enclosing function's variables it reads) is a tensor or an
nn.Module, or a list, tuple or dict holding one. Each is reported as torch reports it: the entry
`file:<dictcomp>`, its break at the comprehension's line."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value

COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp)
_ITERATORS = {V.DICT: "dict_keyiterator", V.LIST: "list_iterator", V.TUPLE: "tuple_iterator", V.SET: "set_iterator",
              V.RANGE: "range_iterator"}
_CONTAINERS = (V.LIST, V.TUPLE, V.DICT)


@dataclass(frozen=True)
class ComprehensionFrame:
    """A comprehension a skipped frame runs, which Dynamo compiles as a frame: `.0` is its input."""

    node: cst.CSTNode
    name: str  # <listcomp>, <setcomp>, <dictcomp>
    iterator: str  # the type of `.0`: tuple_iterator, dict_keyiterator, ...


def iterator_type(iterable: Value) -> str | None:
    """The type of `iter(iterable)`; None when the walk cannot tell."""
    given = iterable.attrs.get(V.ITERATOR)
    if given is not None and given.known:
        return str(given.value)
    if iterable.kind == V.CONST and iterable.known and isinstance(iterable.value, str):
        return "str_ascii_iterator" if iterable.value.isascii() else "str_iterator"
    return _ITERATORS.get(iterable.kind)


def free_names(node: cst.ListComp | cst.SetComp | cst.DictComp) -> set[str]:
    """The names the comprehension's own code reads and does not bind: the enclosing function's
    variables it closes over, and globals. The outermost iterable is evaluated outside it."""
    parts: list[cst.CSTNode] = [node.key, node.value] if isinstance(node, cst.DictComp) else [node.elt]
    bound: set[str] = set()
    comp: cst.CompFor | None = node.for_in
    first = True
    while comp is not None:
        bound |= _targets(comp.target)
        parts += [*(cond.test for cond in comp.ifs), *([] if first else [comp.iter])]
        first, comp = False, comp.inner_for_in
    read: set[str] = set()
    for part in parts:
        _names(part, read)
    return read - bound


def has_tensor(value: Value, depth: int = 0) -> bool | None:
    """convert_frame's has_tensor for a value of the walk; None when the walk does not know it."""
    if value.kind in (V.TENSOR, V.NN_MODULE):
        return True
    if value.kind in _CONTAINERS and depth < 4:
        if value.items is None:
            return None
        found = [has_tensor(item, depth + 1) for item in value.items]
        return True if True in found else None if None in found else False
    if value.kind in (V.CONST, V.FUNC, V.BUILTIN, V.RANGE, V.SET, V.ENUM, V.OBJECT):
        return False  # an object's attributes are not searched (nor a dict or list subclass's items)
    return None


def names_read(fn: cst.FunctionDef) -> set[str]:
    """The names a function's own code reads, attributes' bases included (nested functions, lambdas
    and comprehensions are code objects of their own)."""
    read: set[str] = set()
    _names(fn.body, read, functions=False)
    return read


def global_names(fn: cst.FunctionDef) -> set[str]:
    """The names a function's own code reads (co_names' globals among them), less its parameters
    and the names it binds."""
    params = {p.name.value for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)}
    params |= {p.name.value for p in (fn.params.star_arg, fn.params.star_kwarg) if isinstance(p, cst.Param)}
    return names_read(fn) - params - _local_names(fn.body)


def _local_names(node: cst.CSTNode) -> set[str]:
    """The names a function's own code binds (an `import torch` inside it is a local, not a global)."""
    out: set[str] = set()
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        return {node.name.value}
    if isinstance(node, (cst.Import, cst.ImportFrom)) and not isinstance(node.names, cst.ImportStar):
        for alias in node.names:
            bound = alias.asname.name if alias.asname else alias.name
            if isinstance(bound, cst.Name):
                out.add(bound.value)
            elif isinstance(bound, cst.Attribute):  # `import torch.nn` binds `torch`
                root: cst.BaseExpression = bound
                while isinstance(root, cst.Attribute):
                    root = root.value
                if isinstance(root, cst.Name):
                    out.add(root.value)
        return out
    if isinstance(node, cst.AssignTarget):
        return _targets(node.target)
    if isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.For)):
        out |= _targets(node.target)
    if isinstance(node, cst.Lambda) or isinstance(node, COMPREHENSIONS):
        return out
    for child in node.children:
        out |= _local_names(child)
    return out


def _targets(target: cst.BaseExpression) -> set[str]:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return {name for element in target.elements for name in _targets(element.value)}
    return set()


def _names(node: cst.CSTNode, out: set[str], functions: bool = True) -> None:
    """The names `node` reads, attributes' bases included (`torch` of `torch.zeros`), not looking into
    nested comprehensions' own bindings (they are frames of their own as well); with `functions` off,
    nor into nested functions, lambdas and comprehensions at all."""
    if isinstance(node, cst.Name):
        out.add(node.value)
    elif isinstance(node, cst.Attribute):
        _names(node.value, out, functions)
    elif isinstance(node, COMPREHENSIONS):
        if functions:
            out |= free_names(node)
        else:  # its outermost iterable is evaluated by the enclosing code
            _names(node.for_in.iter, out, functions)
    elif not functions and isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        return
    else:
        for child in node.children:
            _names(child, out, functions)
