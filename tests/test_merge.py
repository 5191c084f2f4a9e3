"""The join of the predicted and the observed trace."""

from vtlint.findings import Evidence, Location
from vtlint.report.merge import merge
from vtlint.trace import Action, Event

HERE = Location("m.py", 5)


def wrap(source: str, vt: str, guard_kind: str) -> Event:
    return Event(Action.WRAP, HERE, "m.py:f", source=source, variable_tracker=vt, guard_kind=guard_kind)


def evidence(predicted: list[Event], observed: list[Event], exercised: bool = True) -> list[tuple[str, Evidence]]:
    return [(m.event.variable_tracker or "", m.evidence) for m in merge(predicted, observed, lambda _e: exercised)]


def test_same_source_same_wrapping_confirms() -> None:
    const = wrap("L['n']", "ConstantVariable", "EQUALS_MATCH")
    assert evidence([const], [const]) == [("ConstantVariable", Evidence.CONFIRMED)]


def test_a_constant_the_runtime_saw_as_a_tensor_is_refuted_and_the_tensor_runtime_only() -> None:
    guessed = wrap("L['mask']", "ConstantVariable", "NONE_MATCH")
    tensor = wrap("L['mask']", "TensorVariable", "TENSOR_MATCH")
    assert evidence([guessed], [tensor], exercised=False) == [
        ("ConstantVariable", Evidence.REFUTED),
        ("TensorVariable", Evidence.RUNTIME_ONLY),
    ]


def test_a_later_compatible_observation_still_confirms() -> None:
    const = wrap("L['n']", "ConstantVariable", "EQUALS_MATCH")
    tensor = wrap("L['n']", "TensorVariable", "TENSOR_MATCH")
    assert evidence([const], [tensor, const])[0] == ("ConstantVariable", Evidence.CONFIRMED)


def test_unexercised_predictions_stay_predicted_without_runtime() -> None:
    const = wrap("L['n']", "ConstantVariable", "EQUALS_MATCH")
    assert [m.evidence for m in merge([const])] == [Evidence.PREDICTED]
    assert evidence([const], [], exercised=False) == [("ConstantVariable", Evidence.PREDICTED)]
    assert evidence([const], [], exercised=True) == [("ConstantVariable", Evidence.REFUTED)]
