"""Whatever the findings hold -- odd paths, spans that end before they start, blank
or bracket-laden messages -- the log is valid SARIF that GitHub accepts."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sarif_support import assert_valid, sample_result

from vtlint.findings import Edit, Evidence, Finding, Fix, Kind, Level, Location, Notification, Related
from vtlint.report.sarif import build_log
from vtlint.report.sarif_merge import merge_logs
from vtlint.report.uris import Paths

_SEGMENT = st.text(alphabet=st.sampled_from("aZ09 _-.%#?[]()ü日\\'&+"), min_size=1, max_size=6).filter(
    lambda s: s not in (".", "..")
)
_PATH = st.builds(lambda up, parts: "../" * up + "/".join(parts) + ".py",
                  st.integers(0, 2), st.lists(_SEGMENT, min_size=1, max_size=3))
_LOCATION = st.builds(Location, _PATH, st.integers(-1, 50), st.integers(-1, 90), st.integers(-1, 60), st.integers(-1, 90))
_TEXT = st.text(max_size=40)
_RELATED = st.builds(Related, _LOCATION, _TEXT)
_FINDING = st.builds(
    Finding,
    code=st.sampled_from(["VTL001", "VTL101", "VTL201", "VTL499"]),
    kind=st.sampled_from(list(Kind)),
    level=st.sampled_from(list(Level)),
    location=_LOCATION,
    message=_TEXT,
    source=st.one_of(st.none(), st.just("L['n']"), _TEXT),
    gb_id=st.one_of(st.none(), st.just("GB0170")),
    evidence=st.sampled_from(list(Evidence)),
    entry=st.one_of(st.none(), _TEXT),
    related=st.lists(_RELATED, max_size=3).map(tuple),
    chain=st.lists(_RELATED, max_size=3).map(tuple),
    fix=st.one_of(st.none(), st.builds(Fix, _TEXT, st.lists(st.builds(Edit, _LOCATION, _TEXT), max_size=2).map(tuple),
                                       st.booleans())),
    runtime=st.dictionaries(st.sampled_from(["a", "b"]), st.integers()),
)
_NOTE = st.builds(Notification, st.sampled_from(["io-error", "runtime-fault", ""]), _TEXT, st.sampled_from(list(Level)),
                  st.one_of(st.none(), _LOCATION))


# No shrinking: each example validates whole logs, and a failure is readable as it is.
@settings(max_examples=40, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow])
@given(findings=st.lists(_FINDING, max_size=6), notes=st.lists(_NOTE, max_size=3))
def test_any_findings_give_a_valid_log(findings: list[Finding], notes: list[Notification]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        (root / ".git").mkdir()
        result = sample_result(sorted(findings, key=lambda f: f.sort_key))
        result.notifications = notes
        log = assert_valid(build_log(result, Paths.for_root(root)))
        assert len(log["runs"][0]["results"]) == len(findings)
        assert_valid(merge_logs([log, log]))
