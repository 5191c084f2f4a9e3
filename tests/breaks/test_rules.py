"""The VTL2xx rules as views over GRAPH_BREAK events (synthetic events: the walk
and the runtime produce the same shape)."""

from __future__ import annotations

import pytest

from vtlint.findings import Evidence, Level, Location
from vtlint.rules.base import RuleContext
from vtlint.rules.registry import all_rules
from vtlint.trace import Action, Event, MergedEvent

pytestmark = pytest.mark.usefixtures("shipped")


def _event(gb_id: str | None, gb_type: str | None, **detail: object) -> Event:
    return Event(Action.GRAPH_BREAK, Location("m.py", 7), "m.py:f", frame="f", gb_id=gb_id, gb_type=gb_type,
                 detail=dict(detail))


def _codes(event: Event, evidence: Evidence = Evidence.PREDICTED, dynamo: dict | None = None,
           observed: Event | None = None) -> list[tuple[str, str, str]]:
    merged = MergedEvent(event, evidence, observed)
    ctx = RuleContext(dynamo=dynamo or {})
    out = []
    for code, rule in all_rules().items():
        instance = rule()
        if instance.applies(merged, ctx):
            finding = instance.build(merged, ctx)
            out.append((code, finding.level.value, finding.message))
    return out


@pytest.mark.parametrize(
    ("gb_id", "gb_type", "code"),
    [
        ("GB0170", "Data-dependent branching", "VTL201"),
        ("GB0059", "Failed to trace builtin operator", "VTL202"),
        ("GB0291", "logging.Logger method not supported for non-export cases", "VTL202"),
        ("GB0124", "Unsupported Tensor.item() call with capture_scalar_outputs=False", "VTL203"),
        ("GB0007", "Attempted to call function marked as skipped", "VTL204"),
        ("GB0098", "Skip calling `torch.compiler.disable()`d function", "VTL205"),
        ("GB0025", "Call to `torch._dynamo.graph_break()`", "VTL206"),
        ("GB0142", "Unsupported context manager", "VTL208"),
        ("GB0123", "Unsupported Tensor.backward() call", "VTL299"),
        (None, "Data-dependent branching", "VTL201"),  # an id found from the Gb_type
        (None, "something torch invented later", "VTL299"),
    ],
)
def test_one_rule_per_family(gb_id: str | None, gb_type: str, code: str) -> None:
    found = _codes(_event(gb_id, gb_type, resume="torch_dynamo_resume_in_f_at_7"))
    assert [c for c, _, _ in found] == [code]
    _, level, message = found[0]
    assert level == "warning"
    assert gb_type in message


def test_message_speaks_the_registry_and_the_cost() -> None:
    (_, _, message), = _codes(_event("GB0170", "Data-dependent branching", resume="torch_dynamo_resume_in_f_at_7"))
    assert message.startswith("Graph break (GB0170 Data-dependent branching): Detected data-dependent branching")
    assert "torch_dynamo_resume_in_f_at_7" in message
    assert "gb0170.html" in message


def test_fullgraph_makes_it_an_error() -> None:
    (_, level, message), = _codes(_event("GB0059", "Failed to trace builtin operator", fullgraph=True))
    assert level == "error" and "will raise" in message
    (_, level, _), = _codes(_event("GB0059", "Failed to trace builtin operator"), dynamo={"error_on_graph_break": True})
    assert level == "error"


def test_break_in_loop_is_one_finding_about_the_frame() -> None:
    found = _codes(_event("GB0059", "Failed to trace builtin operator", in_loop=True, frame_skipped=True))
    assert [c for c, _, _ in found] == ["VTL207"]
    assert "GB0059" in found[0][2] and "GB7000" in found[0][2] and "eagerly" in found[0][2]


def test_frame_skipped_outside_a_loop_stays_in_its_family() -> None:
    found = _codes(_event("GB0142", "Unsupported context manager", frame_skipped=True))
    assert [c for c, _, _ in found] == ["VTL208"]
    assert "skips the whole frame" in found[0][2]


def test_refuted_break_is_a_note_and_runtime_words_win() -> None:
    assert _codes(_event("GB0007", "Attempted to call function marked as skipped"), Evidence.REFUTED)[0][1] == "note"
    observed = _event("GB0007", "Attempted to call function marked as skipped",
                      explanation="Dynamo does not know how to trace the builtin `time.time.`")
    (_, _, message), = _codes(_event("GB0007", "Attempted to call function marked as skipped"), Evidence.CONFIRMED,
                              observed=observed)
    assert "`time.time.`" in message


def test_other_actions_are_not_graph_breaks() -> None:
    wrap = Event(Action.WRAP, Location("m.py", 3), "m.py:f", source="L['n']")
    assert not [c for c, _, _ in _codes(wrap) if c.startswith("VTL2")]


@pytest.mark.parametrize(("gb_id", "gb_type"), [
    ("GB0007", "Attempted to call function marked as skipped"),  # registry explanation: `explanation`
    ("GB0088", "Observed exception"),  # registry explanation: `observed_exn_gb_explanation`
])
def test_registry_variable_names_never_reach_the_message(gb_id: str, gb_type: str) -> None:
    event = _event(gb_id, gb_type, reason="`time.time` is in a module trace_rules skips")
    [(_, _, message)] = _codes(event)
    assert "explanation" not in message
    assert "trace_rules skips" in message
