"""values.snapshot: what a compiled call saw, one object staying one object however deep it is reached."""

from __future__ import annotations

from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value


def _module(child: Value | None, config: Value) -> Value:
    attrs = {"config": config}
    if child is not None:
        attrs["child"] = child
    return Value(V.NN_MODULE, ref="m.Block", attrs=attrs)


def test_a_config_reached_shallow_and_at_the_copied_depth_stays_one_object() -> None:
    """transformers' Mixtral: `L['self'].config` is the config `...layers[0].mlp.experts.config` reaches,
    six objects down, where the copy stops."""
    config = Value(V.OBJECT, ref="m.Config", attrs={"impl": V.const("grouped_mm")})
    model = None
    for _ in range(6):  # the config held by every module of the chain, the deepest one's at the limit
        model = _module(model, config)
    assert model is not None
    copy = V.snapshot(model)
    reached, node = [], copy
    while node is not None:
        reached.append(node.attrs["config"].attrs)
        node = node.attrs.get("child")
    assert len(reached) == 6
    assert all(attrs is reached[0] for attrs in reached)


def test_a_snapshot_does_not_see_later_stores() -> None:
    config = Value(V.OBJECT, ref="m.Config", attrs={"scale": V.const(1)})
    copy = V.snapshot(_module(None, config))
    config.attrs["scale"] = V.const(2)
    assert copy.attrs["config"].attrs["scale"].value == 1
