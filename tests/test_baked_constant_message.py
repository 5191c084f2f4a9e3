"""VTL101 says when its value is a guess (a low-confidence prediction nothing observed)."""

from vtlint.findings import Evidence, Location
from vtlint.rules.base import RuleContext
from vtlint.rules.catalog.baked_constants import BakedConstant
from vtlint.trace import Action, Event, MergedEvent


def message(confidence: str, observed: bool) -> str:
    event = Event(Action.WRAP, Location("m.py", 3), "m.py:f", source="L['mask']", variable_tracker="ConstantVariable",
                  guard_kind="NONE_MATCH", guard="NONE_MATCH: L['mask'] is None", value="None", confidence=confidence)
    merged = MergedEvent(event, Evidence.CONFIRMED if observed else Evidence.PREDICTED, event if observed else None)
    finding = BakedConstant().build(merged, RuleContext())
    assert finding is not None and finding.confidence == confidence
    return finding.message


def test_a_guess_says_so_until_the_runtime_confirms_it() -> None:
    assert "low confidence: a guess" in message("low", observed=False)
    assert "low confidence" not in message("low", observed=True)
    assert "low confidence" not in message("high", observed=False)
