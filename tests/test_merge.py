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


def test_a_constant_the_runtime_saw_as_a_tensor_is_refuted_with_the_tensor_not_repeated() -> None:
    guessed = wrap("L['mask']", "ConstantVariable", "NONE_MATCH")
    tensor = wrap("L['mask']", "TensorVariable", "TENSOR_MATCH")
    merged = merge([guessed], [tensor], lambda _e: False)
    assert [(m.evidence, m.observed) for m in merged] == [(Evidence.REFUTED, tensor)]


def test_a_different_guarded_value_is_refuted_and_carries_the_runtime_record() -> None:
    predicted = wrap("L['self'].step", "ConstantVariable", "EQUALS_MATCH").with_(value="1")
    seen = predicted.with_(value="0", location=Location("other.py", 9))
    merged = merge([predicted], [seen], lambda _e: True)
    assert [(m.evidence, m.observed) for m in merged] == [(Evidence.REFUTED, seen)]


def test_guards_join_on_the_entry_not_on_the_file_of_the_line() -> None:
    change = Event(Action.RECOMPILE, Location("run.py", 11), "model.py:step", source="L['k']")
    seen = change.with_(location=Location("model.py", 20))
    assert [m.evidence for m in merge([change], [seen])] == [Evidence.CONFIRMED]


def test_an_inline_whose_callee_the_runtime_compiled_as_its_own_frame_is_refuted() -> None:
    call = Event(Action.INLINE, HERE, "m.py:Net.forward", callee="m.py:MLP.forward")
    frame = Event(Action.FRAME, Location("m.py", 2), "m.py:MLP.forward", frame="forward")
    merged = merge([call], [call, frame])
    assert [(m.evidence, m.observed) for m in merged][0] == (Evidence.REFUTED, frame)
    assert [m.evidence for m in merged][1:] == [Evidence.RUNTIME_ONLY]  # the FRAME itself (VTL402's view)


def test_a_later_compatible_observation_still_confirms() -> None:
    const = wrap("L['n']", "ConstantVariable", "EQUALS_MATCH")
    tensor = wrap("L['n']", "TensorVariable", "TENSOR_MATCH")
    assert evidence([const], [tensor, const])[0] == ("ConstantVariable", Evidence.CONFIRMED)


def test_unexercised_predictions_stay_predicted_without_runtime() -> None:
    const = wrap("L['n']", "ConstantVariable", "EQUALS_MATCH")
    assert [m.evidence for m in merge([const])] == [Evidence.PREDICTED]
    assert evidence([const], [], exercised=False) == [("ConstantVariable", Evidence.PREDICTED)]
    assert evidence([const], [], exercised=True) == [("ConstantVariable", Evidence.REFUTED)]


def _hyper(source: str, value: str, **detail: object) -> Event:
    module = source.rpartition(".")[0]
    return Event(Action.WRAP, HERE, "m.py:f", source=source, variable_tracker="ConstantVariable",
                 guard_kind="EQUALS_MATCH", guard=f"EQUALS_MATCH: {source} == {value}", value=value,
                 detail={"builtin_module": {"source": module, "type": "torch.nn.LayerNorm"}, **detail})


def _fold(predicted: list[Event], observed: list[Event]) -> list[tuple[str | None, Evidence, list[str]]]:
    from vtlint.rules.base import RuleContext
    from vtlint.rules.catalog.builtin_modules import FOLDED, BuiltinModuleHyperparameters

    folded = BuiltinModuleHyperparameters().fold(merge(predicted, observed, lambda _e: True), RuleContext())
    return [(m.event.source, m.evidence, [a["attribute"] for a in m.event.detail.get(FOLDED, [])]) for m in folded]


def test_runtime_only_hyperparameters_of_a_builtin_module_fold_into_one_event() -> None:
    eps, shape = _hyper("L['self'].ln.eps", "1e-05"), _hyper("L['self'].ln.normalized_shape", "(8,)")
    assert _fold([], [eps, shape]) == [("L['self'].ln", Evidence.RUNTIME_ONLY, ["eps", "normalized_shape"])]


def test_a_predicted_hyperparameter_stays_confirmed_and_the_rest_fold() -> None:
    eps, shape = _hyper("L['self'].ln.eps", "1e-05"), _hyper("L['self'].ln.normalized_shape", "(8,)")
    assert _fold([eps], [eps, shape]) == [("L['self'].ln.eps", Evidence.CONFIRMED, []),
                                          ("L['self'].ln", Evidence.RUNTIME_ONLY, ["normalized_shape"])]


def test_a_hyperparameter_that_changed_is_never_folded() -> None:
    p = _hyper("L['self'].drop.p", "0.1")
    recompile = Event(Action.RECOMPILE, HERE, "m.py:f", source="L['self'].drop.p", guard_kind="EQUALS_MATCH")
    assert _fold([], [p, recompile]) == [("L['self'].drop.p", Evidence.RUNTIME_ONLY, []),
                                        ("L['self'].drop.p", Evidence.RUNTIME_ONLY, [])]
    # two values in two compiles, the recompile blamed on another guard
    twice = _hyper("L['self'].drop.p", "0.1", values=["0.1", "0.3"])
    assert _fold([], [twice]) == [("L['self'].drop.p", Evidence.RUNTIME_ONLY, [])]


def test_a_break_past_the_one_dynamo_gave_up_the_frame_at_is_not_refuted(tmp_path) -> None:  # noqa: ANN001
    """Mixtral's eager experts: the loop breaks at the `if` on a tensor row (GB0170) and Dynamo skips the resume
    frame; the `torch.where` further down the loop, which the static pass named instead, was never traced."""
    source = tmp_path / "experts.py"
    source.write_text("def forward(self, hit, mask):\n    for row in hit:\n        if row[0] == 4:\n"
                      "            continue\n        where = torch.where(mask[row[0]])\n    return hit\n\n\n"
                      "def other(x):\n    return torch.where(x)\n")
    entry, frame = f"{source}:forward", "torch_dynamo_resume_in_forward_at_1"

    def brk(line: int, gb_type: str, **detail: object) -> Event:
        return Event(Action.GRAPH_BREAK, Location(str(source), line), entry, frame=frame, gb_type=gb_type,
                     detail={"in_loop": True, **detail})

    seen = brk(3, "Data-dependent branching", frame_skipped=True)
    later, before = brk(5, "Dynamic shape operator"), brk(2, "Dynamic shape operator")
    elsewhere = brk(10, "Dynamic shape operator")  # another function: its line says nothing of the loop
    merged = {m.event.location.line: m.evidence for m in merge([later, before, elsewhere], [seen], lambda _e: True)}
    assert merged == {5: Evidence.PREDICTED, 2: Evidence.REFUTED, 10: Evidence.REFUTED, 3: Evidence.RUNTIME_ONLY}
