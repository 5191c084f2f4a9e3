"""Typed Sources print as torch 2.13 prints them in guards (after the runtime's
normalisation, `name()`; Dynamo's own spelling, `raw_name()`) and compare structurally."""

from __future__ import annotations

import pytest

from vtlint.analyzer.sources import (AttrSource, DictKeysSource, GetItemSource, GlobalSource, ImportedModuleSource,
                                     LocalSource, ModuleChildSource, NNModuleSource, TypeAttrSource)
from vtlint.runtime.events import normalize_source

SELF = LocalSource("self")


@pytest.mark.parametrize(("source", "name", "raw"), [
    (LocalSource("n"), "L['n']", "L['n']"),
    (GetItemSource(LocalSource("items"), 0), "L['items'][0]", "L['items'][0]"),
    (AttrSource(GlobalSource("cfg"), "scale"), "G['cfg'].scale", "G['cfg'].scale"),
    (AttrSource(ImportedModuleSource("pkg.model"), "FLAGS"), "G['__import_pkg_dot_model'].FLAGS",
     "G['__import_pkg_dot_model'].FLAGS"),
    (TypeAttrSource(LocalSource("cfg"), "scale"), "L['cfg'].scale", "dict(type(L['cfg']).__dict__)['scale']"),
    (TypeAttrSource(LocalSource("self"), "flag", 1), "L['self'].flag",
     "dict(type(L['self']).__mro__[1].__dict__)['flag']"),  # a base class's attribute (measured)
    (AttrSource(ModuleChildSource(ModuleChildSource(SELF, "layers"), "0"), "eps"),
     "L['self'].layers._modules['0'].eps", "L['self']._modules['layers']._modules['0'].eps"),
    (GetItemSource(AttrSource(GlobalSource("helper"), "__kwdefaults__"), "scale"),
     "G['helper'].__kwdefaults__['scale']", "G['helper'].__kwdefaults__['scale']"),
])
def test_printed_as_torch_prints_them(source, name: str, raw: str) -> None:
    assert source.name() == name
    assert source.raw_name() == raw
    assert normalize_source(raw) == name  # the runtime's spelling of Dynamo's guard meets ours


def test_a_dicts_key_order_is_guarded_on_its_first_key() -> None:
    keys = DictKeysSource(LocalSource("d"))
    assert (keys.name(), keys.raw_name()) == ("L['d']", "list(dict.keys(L['d']))[0]")


def test_compared_structurally_not_as_strings() -> None:
    assert AttrSource(SELF, "eps") == AttrSource(LocalSource("self"), "eps")
    assert AttrSource(SELF, "eps") != AttrSource(LocalSource("other"), "eps")
    assert len({GetItemSource(SELF, 0), GetItemSource(SELF, 0)}) == 1
    # same printed name, different structure: one is read through an nn.Module
    assert AttrSource(NNModuleSource(SELF), "k").name() == AttrSource(SELF, "k").name()
    assert AttrSource(NNModuleSource(SELF), "k") != AttrSource(SELF, "k")


def test_nn_module_guard_source_propagates_down_the_chain() -> None:
    """Dynamo's `is_unspecialized_nn_module()`: what is read through a module (its ints stay static)."""
    assert AttrSource(AttrSource(NNModuleSource(SELF), "cfg"), "n").is_nn_module()
    assert AttrSource(ModuleChildSource(LocalSource("model"), "block"), "calls").is_nn_module()
    assert not AttrSource(LocalSource("cfg"), "n").is_nn_module()
    assert AttrSource(ModuleChildSource(SELF, "norm"), "eps").root() == SELF
