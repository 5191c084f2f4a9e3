"""The static pass against torch 2.13 on small programs: per program, the
predicted constant guards (value guards + LENGTH_CHECK), inlined calls and
recompiles must be exactly what Dynamo does. One subprocess runs them all."""

from __future__ import annotations

import pytest

from tests.golden_constants.agreement import KINDS, keys, render, tally
from tests.golden_constants.programs import DATA, PROGRAMS
from tests.oracle import Observation, observe, predict
from vtlint.trace import Action, Event

pytestmark = pytest.mark.torch

# Known divergences between the static model and torch, each with its reason.
# (decorated_entry was one until the runtime spelled the wrapper frame's reads in the
# decorated forward's terms: L['args'][0] is L['self'], L['fn'].__defaults__[0] is L['k'].)
DIVERGENCES: dict[str, str] = {}


@pytest.fixture(scope="module")
def observed() -> dict[str, Observation]:
    return observe(PROGRAMS, data=DATA)


@pytest.fixture(scope="module")
def predicted() -> dict[str, list[Event]]:
    return predict(PROGRAMS, data=DATA)


def test_suite_is_big_enough() -> None:
    assert len(PROGRAMS) >= 40


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=DIVERGENCES[n])) if n in DIVERGENCES else n
    for n in PROGRAMS
])
def test_program_agrees_with_torch(name: str, observed: dict[str, Observation],
                                   predicted: dict[str, list[Event]]) -> None:
    seen = observed[name]
    assert seen.error is None, f"{name} failed under torch: {seen.error}"
    for kind in KINDS:
        said, got = keys(predicted[name], kind), keys(seen.events, kind)
        assert said == got, f"{name} {kind}: predicted only {said - got}, observed only {got - said}"


def test_agreement_table(observed: dict[str, Observation], predicted: dict[str, list[Event]],
                         capsys: pytest.CaptureFixture[str]) -> None:
    table = tally(predicted, {n: o.events for n, o in observed.items()})
    with capsys.disabled():
        print("\n" + render(table))
    for kind, row in table.items():
        assert row.observed > 0, f"the suite observes no {kind} events: it checks nothing"
        assert row.precision >= 0.9 and row.recall >= 0.9, f"{kind}: {row}"


# Graph counts the walk cannot know: which recompile traces an empty graph.
FRAME_DIVERGENCES = {
    "resume_frame_recompiles_alone": "a float handed to an op (`alpha=-lr`) is specialized by the compiler, so "
                                     "under Inductor or aot_eager each new value recompiles the resume frame (the "
                                     "prediction: 1 + 4 graphs); the oracle's eager backend makes it a SymFloat "
                                     "after one recompile (1 + 2)",
    "dynamic_true_sampling_settings": "a SymFloat tested by a Python branch (`temperature <= 0.0`) gets a relational "
                                      "guard the static pass does not model (torch compiles again when the branch "
                                      "flips: 3 graphs); the prediction counts one compile per value top_k takes",
}


def _counts(events: list[Event]) -> dict[str, tuple[object, object]]:
    return {e.entry: (e.detail.get("graph_count"), e.detail.get("graph_break_count"))
            for e in events if e.action is Action.FRAME}


def test_graph_and_break_counts_agree(observed: dict[str, Observation], predicted: dict[str, list[Event]]) -> None:
    """FRAME: graphs over the run (every compile traces them again) and graph breaks, per entry."""
    wrong = {}
    for name in PROGRAMS:
        said, seen = _counts(predicted[name]), _counts(observed[name].events)
        if (said != seen) != (name in FRAME_DIVERGENCES):
            wrong[name] = (said, seen)
    assert wrong == {}, f"(predicted, observed) graph/break counts: {wrong}"
