"""The snapshot builder asks each torch only for what it provides: a release that lacks
a piece of trace_rules loses that piece of the snapshot, never the whole snapshot."""

from __future__ import annotations

import json
import logging
import time
import types
from collections.abc import Iterator
from typing import Any

import pytest

from vtlint.rules.trace_rules import build, snapshot


class SkipFunctionVariable:
    pass


class UserFunctionVariable:
    pass


def _skip_reasons(obj: Any, reasons: set[str] | None = None) -> type:
    """A fake `lookup_inner`: the time module is skipped, everything else inlined."""
    skipped = getattr(obj, "__module__", "") == "time"
    if reasons is not None:
        reasons.add("skipped according to trace_rules.lookup SKIP_DIRS" if skipped else "inlined by default")
    return SkipFunctionVariable if skipped else UserFunctionVariable


def _fake_trace_rules(**attrs: Any) -> types.SimpleNamespace:
    """trace_rules as a torch release without `get_skip_reason`, `lookup_callable`,
    `is_numpy` or `check_file` (the torch 2.11 shape of the failing build, and less)."""
    return types.SimpleNamespace(**({"lookup_inner": _skip_reasons} | attrs))


def test_a_missing_get_skip_reason_loses_only_the_skip_reason_text() -> None:
    api = build.TraceRulesApi.detect(_fake_trace_rules(), types.SimpleNamespace())
    assert api.get_skip_reason is None and api.inner_reasons
    assert set(api.lacking()) == {
        "callables.get_skip_reason", "callables.lookup_callable", "callables.is_numpy", "callables.check_file",
        "callables.is_reorderable_logging", "callables.in_torch_numpy",
    }
    assert build.classify(time.time, api) == (
        "SkipFunctionVariable", "skipped according to trace_rules.lookup SKIP_DIRS")
    assert build.classify(json.dumps, api) == ("UserFunctionVariable", "inlined by default")
    assert build.classify(json.JSONEncoder, api) == ("UserDefinedClassVariable", "class")


def test_get_skip_reason_is_used_where_torch_has_it() -> None:
    rules = _fake_trace_rules(get_skip_reason=lambda obj: f"{obj.__module__} is in BUILTIN_SKIPLIST")
    api = build.TraceRulesApi.detect(rules, types.SimpleNamespace(is_reorderable_logging_function=lambda obj: False))
    assert set(api.lacking()) == {"callables.lookup_callable", "callables.is_numpy", "callables.check_file",
                                  "callables.in_torch_numpy"}
    assert build.classify(time.time, api) == ("SkipFunctionVariable", "time is in BUILTIN_SKIPLIST")


def test_a_numpy_function_torch_numpy_lacks_is_measured_so() -> None:  # numpy_function_not_in_torch
    rules = _fake_trace_rules(is_numpy=lambda obj: getattr(obj, "__module__", "") == "json")
    api = build.TraceRulesApi.detect(rules, types.SimpleNamespace(), lambda: {json.dumps: None})
    assert "callables.in_torch_numpy" not in api.lacking()
    assert build.classify(json.dumps, api) == ("NumpyVariable", "numpy function traced as torch ops (trace_numpy)")
    assert build.classify(json.loads, api) == ("NumpyVariable", snapshot.NOT_IN_TORCH_NUMPY)


def test_lookup_inner_without_reasons_still_classifies() -> None:
    api = build.TraceRulesApi.detect(_fake_trace_rules(lookup_inner=lambda obj: SkipFunctionVariable),
                                     types.SimpleNamespace())
    assert not api.inner_reasons and "callables.inner_reasons" in api.lacking()
    assert build.classify(time.time, api) == ("SkipFunctionVariable", "")


def test_a_callable_the_torch_trips_on_is_lost_alone() -> None:
    def lookup_inner(obj: Any, reasons: set[str] | None = None) -> type:
        if obj is time.sleep:
            raise TypeError("unhashable")
        return _skip_reasons(obj, reasons)

    lost: dict[str, str] = {}
    measured = build.measure_callables(("time",), build.TraceRulesApi.detect(
        _fake_trace_rules(lookup_inner=lookup_inner), types.SimpleNamespace()), lost)
    assert "sleep" not in measured["time"]["known"].split() and "time" in measured["time"]["known"].split()
    assert lost == {"callables.time": "1 unmeasured (sleep): TypeError: unhashable"}


def test_the_builder_measures_the_sections_the_loader_knows() -> None:
    assert tuple(key for key, _, _ in build.MEASURES) == snapshot.SECTIONS


@pytest.fixture
def small_build(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The real build against the installed torch, on a few modules and one probe."""
    monkeypatch.setattr(build, "STDLIB_MODULES", ("time", "json"))
    monkeypatch.setattr(build, "THIRDPARTY_MODULES", ())
    monkeypatch.setattr(build, "PROBED_CALLS", {"time.time": "time.time()"})
    yield
    logging.disable(logging.NOTSET)  # build() silences logging for its process


def _trace_rules_without(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """`torch._dynamo.trace_rules` as the builder imports it, minus `names`: Dynamo's own
    modules keep the real one, so compiles (the probes) still work."""
    import torch._dynamo
    from torch._dynamo import trace_rules

    shaped = types.ModuleType(trace_rules.__name__)
    shaped.__dict__.update({k: v for k, v in vars(trace_rules).items() if k not in names})
    monkeypatch.setattr(torch._dynamo, "trace_rules", shaped)


@pytest.mark.torch
def test_a_torch_without_get_skip_reason_keeps_every_section(
    small_build: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The torch 2.11 failure: `trace_rules.get_skip_reason` absent. Before, the whole
    build failed with AttributeError and vtlint fell back to another release's snapshot."""
    _trace_rules_without(monkeypatch, "get_skip_reason")
    data = build.build()
    assert set(data["lost"]) == {"callables.get_skip_reason"}
    assert data["callables"]["time"]["default"][0] == "SkipFunctionVariable"
    assert data["torch_functions"]["torch.sin"] == "TorchInGraphFunctionVariable"
    assert data["probed_calls"] == {"time.time": "GB0007"}
    assert data["registry"] and data["modules"]["mod_skiplist"] and "item" in data["tensor_methods"]


@pytest.mark.torch
def test_a_section_whose_source_is_missing_is_lost_alone(small_build: None, monkeypatch: pytest.MonkeyPatch) -> None:
    _trace_rules_without(monkeypatch, "torch_name_rule_map", "lookup_inner")
    data = build.build()
    assert data["torch_functions"] == {} and data["callables"] == {}
    assert data["lost"]["torch_functions"].startswith("AttributeError")
    assert data["lost"]["callables"].startswith("AttributeError")
    assert data["modules"]["builtin_skiplist"] and data["registry"] and data["probed_calls"]
