"""Sources: where a value from outside the frame came from, as Dynamo's `source.py` has them.

Each Source is a small immutable structure, compared structurally (never as a string),
from which both the guard and the printed name grow. `name()` is vtlint's normalised
spelling, the one the runtime half also produces from torch's guards (so the two meet on
the join key); `raw_name()` is how torch 2.13 itself prints the Source in its guards where
that differs (`dict(type(L['cfg']).__dict__)['scale']`, `L['self']._modules['lin']`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class Source:
    """A chain of accesses rooted at a frame local or a global."""

    def name(self) -> str:
        raise NotImplementedError

    def raw_name(self) -> str:
        return self.name()

    @property
    def base(self) -> Source | None:
        return None

    def root(self) -> Source:
        source: Source = self
        while source.base is not None:
            source = source.base
        return source

    def is_nn_module(self) -> bool:
        """Reached through an nn.Module (Dynamo's `is_unspecialized_nn_module` guard source)."""
        return self.base.is_nn_module() if self.base is not None else False

    def attr(self, member: str) -> AttrSource:
        return AttrSource(self, member)

    def item(self, index: Any) -> GetItemSource:
        return GetItemSource(self, index)

    def __str__(self) -> str:
        return self.name()


@dataclass(frozen=True)
class LocalSource(Source):
    """A frame local or argument: `L['x']`."""

    local_name: str

    def name(self) -> str:
        return f"L[{self.local_name!r}]"


@dataclass(frozen=True)
class GlobalSource(Source):
    """A global of the compiled frame's module: `G['cfg']`."""

    global_name: str

    def name(self) -> str:
        return f"G[{self.global_name!r}]"


@dataclass(frozen=True)
class ImportedModuleSource(Source):
    """Another module reached from the frame's globals: Dynamo installs it as the global
    `__import_pkg_dot_mod` (`G['__import_pkg_dot_mod'].CONST`)."""

    module: str

    def name(self) -> str:
        return f"G[{'__import_' + self.module.replace('.', '_dot_')!r}]"


@dataclass(frozen=True)
class ChainedSource(Source):
    """A Source reached from another one (Dynamo's ChainedSource)."""

    parent: Source

    @property
    def base(self) -> Source:
        return self.parent


@dataclass(frozen=True)
class AttrSource(ChainedSource):
    """`base.member`."""

    member: str

    def name(self) -> str:
        return f"{self.parent.name()}.{self.member}"

    def raw_name(self) -> str:
        return f"{self.parent.raw_name()}.{self.member}"


@dataclass(frozen=True)
class GetItemSource(ChainedSource):
    """`base[index]`: a list, tuple or dict element."""

    index: Any

    def name(self) -> str:
        return f"{self.parent.name()}[{self.index!r}]"

    def raw_name(self) -> str:
        return f"{self.parent.raw_name()}[{self.index!r}]"


@dataclass(frozen=True)
class NNModuleSource(ChainedSource):
    """An nn.Module, wherever it came from: what is read through it is an nn.Module
    attribute (int attributes stay static; tuples of literals are CONSTANT_MATCHed)."""

    def name(self) -> str:
        return self.parent.name()

    def raw_name(self) -> str:
        return self.parent.raw_name()

    def is_nn_module(self) -> bool:
        return True


@dataclass(frozen=True)
class ModuleChildSource(ChainedSource):
    """A submodule in its parent's `_modules`: `.lin` for a name, `._modules['0']` for a
    ModuleList/Sequential index (the spelling torch's guards keep after normalisation)."""

    key: str

    def is_nn_module(self) -> bool:
        return True

    def name(self) -> str:
        if self.key.isidentifier():
            return f"{self.parent.name()}.{self.key}"
        return f"{self.parent.name()}._modules[{self.key!r}]"

    def raw_name(self) -> str:
        return f"{self.parent.raw_name()}._modules[{self.key!r}]"


@dataclass(frozen=True)
class TypeAttrSource(ChainedSource):
    """A class attribute read through an instance: Dynamo reads it from the `__dict__` of the
    class that defines it, and so spells it `dict(type(L['cfg']).__dict__)['scale']`, or
    `dict(type(L['self']).__mro__[1].__dict__)['flag']` for a base class's."""

    member: str
    mro_index: int = 0

    def name(self) -> str:
        return f"{self.parent.name()}.{self.member}"

    def raw_name(self) -> str:
        owner = f"type({self.parent.raw_name()})" + (f".__mro__[{self.mro_index}]" if self.mro_index else "")
        return f"dict({owner}.__dict__)[{self.member!r}]"


@dataclass(frozen=True)
class DictKeysSource(ChainedSource):
    """The first key of a dict iterated in the frame: `list(dict.keys(L['d']))[0]`."""

    def name(self) -> str:
        return self.parent.name()

    def raw_name(self) -> str:
        return f"list(dict.keys({self.parent.raw_name()}))[0]"


def attr_source(base: Source | None, member: str) -> Source | None:
    return AttrSource(base, member) if base is not None else None


def item_source(base: Source | None, index: Any) -> Source | None:
    return GetItemSource(base, index) if base is not None else None
