"""The JSON report is a public contract: it validates against its schema and is
byte-identical across runs."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema

from vtlint.check import CheckResult
from vtlint.findings import Edit, Evidence, Finding, Fix, Kind, Level, Location, Notification, Related
from vtlint.report.json_format import render_json

SCHEMA = json.loads(resources.files("vtlint.report").joinpath("schemas/report-v1.json").read_text())


def full_finding() -> Finding:
    here = Location("pkg/model.py", 20, 12, 20, 13)
    return Finding(
        code="VTL101", kind=Kind.BAKED_CONSTANT, level=Level.WARNING, location=here,
        message="L['n'] is baked into the graph as 3", source="L['n']", variable_tracker="ConstantVariable",
        gb_id="GB0170", guard="EQUALS_MATCH: L['n'] == 3", evidence=Evidence.CONFIRMED, confidence="medium",
        entry="pkg/model.py:f", related=(Related(Location("pkg/train.py", 9, 5), "called with n=4 here"),),
        chain=(Related(Location("pkg/model.py", 19, 9), "inlined helper"),),
        fix=Fix("mark it dynamic", (Edit(here, "n"),), safe=False), runtime={"failing_guard": "0/0: n == 3"},
    )


def test_report_validates_and_round_trips() -> None:
    finding = full_finding()
    result = CheckResult(findings=[finding], notifications=[Notification("parse-error", "x", Level.ERROR, Location("a.py", 1))],
                         files=["pkg/model.py"], torch_version="2.13.0")
    report = json.loads(render_json(result))
    jsonschema.validate(report, SCHEMA)
    assert Finding.from_dict(report["findings"][0]) == finding


def test_output_is_deterministic(tmp_path: Path) -> None:
    result = CheckResult(findings=[full_finding()], files=["pkg/model.py"], torch_version="2.13.0")
    assert render_json(result) == render_json(result)
    assert "time" not in json.loads(render_json(result))


def test_cli_json_on_examples_validates(run_cli) -> None:
    examples = Path(__file__).resolve().parents[1] / "examples"
    report = json.loads(run_cli("check", examples, "--no-cache", "--format", "json").output)
    jsonschema.validate(report, SCHEMA)
