"""Which predicted constants --probe changes (no torch)."""

from __future__ import annotations

from pathlib import Path

from vtlint.findings import Location
from vtlint.runtime.probes import attach_probes, plan_from_events
from vtlint.trace import Action, Event


def _wrap(source: str, vt: str = "ConstantVariable", entry: str = "pkg/model.py:Net.forward") -> Event:
    return Event(Action.WRAP, Location("pkg/model.py", 3), entry, source=source, variable_tracker=vt)


def test_plan_keeps_arguments_and_attributes_of_constants(tmp_path: Path) -> None:
    events = [
        _wrap("L['n']"), _wrap("L['self'].step"), _wrap("L['cfg'].scale"), _wrap("L['items'][0]"),
        _wrap("L['d']['k']"), _wrap("G['LIMIT']"), _wrap("L['x']", "TensorVariable"),
        _wrap("L['___stack0'] + 1"), _wrap("L['n']"),
        Event(Action.RECOMPILE, Location("pkg/model.py", 3), "pkg/model.py:Net.forward", source="L['m']"),
    ]
    plan = plan_from_events(events, tmp_path)
    assert [p["source"] for p in plan] == ["L['n']", "L['self'].step", "L['cfg'].scale", "L['items'][0]", "L['d']['k']"]
    assert {p["function"] for p in plan} == {"forward"}
    assert {p["file"] for p in plan} == {str((tmp_path / "pkg/model.py").resolve())}


def test_probe_results_land_on_the_observed_wrap() -> None:
    events = [_wrap("L['n']"), _wrap("L['m']")]
    probe = {"entry": "pkg/model.py:Net.forward", "source": "L['n']", "failed_guard": "n == 3", "recompiled": True}
    out = attach_probes(events, [probe])
    assert out[0].detail["probe"] == probe and "probe" not in out[1].detail
