"""`--format sarif`: the log's content, its validity, its fingerprints."""

from __future__ import annotations

import json
from pathlib import Path

from sarif_support import (
    ENTRY,
    MODULE,
    SOURCE,
    Sample,
    assert_valid,
    problems,
    sample_findings,
    sample_result,
    write_repo,
)
from vtlint.check import CheckResult
from vtlint.findings import Edit, Finding, Fix, Kind, Level, Location, Related
from vtlint.report.fingerprint import NAMESPACE
from vtlint.report.sarif import build_log, render_sarif
from vtlint.report.uris import Paths
from vtlint.rules.base import gb_url


def _by_rule(log: dict) -> dict[str, dict]:
    return {r["ruleId"]: r for r in log["runs"][0]["results"]}


def test_sample_log_is_valid(sample: Sample) -> None:
    log = assert_valid(render_sarif(sample.result, root=sample.root))
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    assert len(log["runs"]) == 1


def test_driver_lists_exactly_the_rules_used(sample: Sample) -> None:
    sample.result.findings = [f for f in sample.result.findings if f.code != "VTL001"]
    run = sample.log()["runs"][0]
    driver = run["tool"]["driver"]
    assert {k: driver[k] for k in ("name", "informationUri")} == {"name": "vtlint", "informationUri": "https://github.com/vtlint/vtlint"}
    assert driver["version"] == driver["semanticVersion"]
    assert [r["id"] for r in driver["rules"]] == ["VTL101", "VTL201"]
    for result in run["results"]:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]


def test_rule_descriptor_fields(sample: Sample) -> None:
    rules = {r["id"]: r for r in sample.log()["runs"][0]["tool"]["driver"]["rules"]}
    baked, brk = rules["VTL101"], rules["VTL201"]
    assert baked["name"] == "baked-constant"
    assert baked["shortDescription"]["text"] == "An int argument is baked into the graph as a ConstantVariable."
    assert baked["defaultConfiguration"]["level"] == "warning"  # explicit, though it is SARIF's default
    assert baked["properties"] == {
        "tags": ["torch.compile", "baked-constant", "performance", "recompile"],
        "precision": "high",
        "problem.severity": "warning",
    }
    assert "security-severity" not in json.dumps(rules)
    assert brk["properties"]["problem.severity"] == "error"
    assert len(brk["fullDescription"]["text"]) <= 1024 and brk["fullDescription"]["text"].endswith("…")
    # graph-break rules: the registry's explanation and hints, linked to the graph-break site
    markdown = brk["help"]["markdown"]
    assert f"[GB0059]({gb_url('GB0059')})" in markdown
    assert "## How to fix" in markdown and brk["help"]["text"].startswith("# VTL201 graph-break-print")
    assert brk["helpUri"] == gb_url("GB0059")


def test_result_fields(sample: Sample) -> None:
    results = _by_rule(sample.log())
    baked = results["VTL101"]
    assert baked["level"] == "warning"  # written out: the rule default could differ
    assert baked["message"]["text"] == (
        "L['n'] is baked into the graph as ConstantVariable(3). "
        "Related: n changes to 4 here [ünï.py:16](1); compiled entry f [ünï.py:9](2)."
    )
    location = baked["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "src/model%20dir/%C3%BCn%C3%AF.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 11, "startColumn": 16, "endLine": 11, "endColumn": 17}
    assert [(r["id"], r["message"]["text"], r["physicalLocation"]["region"]["startLine"]) for r in baked["relatedLocations"]] == [
        (1, "n changes to 4 here", 16), (2, "compiled entry f", 9)
    ]
    assert baked["properties"] == {
        "kind": "baked-constant", "source": "L['n']", "variableTracker": "ConstantVariable",
        "guard": "EQUALS_MATCH: L['n'] == 3", "entry": ENTRY, "evidence": "confirmed", "confidence": "high",
        "runtime": {"recompiles": 1},
    }
    replacement = baked["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert replacement == {
        "deletedRegion": {"startLine": 11, "startColumn": 16, "endLine": 11, "endColumn": 17},
        "insertedContent": {"text": "torch.tensor(n)"},
    }
    assert set(baked["partialFingerprints"]) == {NAMESPACE}


def test_graph_break_has_the_inline_chain_as_code_flow(sample: Sample) -> None:
    brk = _by_rule(sample.log())["VTL201"]
    assert brk["properties"]["gbId"] == "GB0059"
    assert brk["properties"]["suggestion"] == "Remove the print"  # advice only: not a SARIF fix
    assert "fixes" not in brk
    flow = brk["codeFlows"][0]
    assert flow["message"]["text"] == f"Inlined from {ENTRY}"
    steps = flow["threadFlows"][0]["locations"]
    assert [(s["nestingLevel"], s["location"]["physicalLocation"]["region"]["startLine"]) for s in steps] == [(0, 10), (1, 5)]
    assert steps[0]["location"]["message"]["text"].startswith("f calls helper")


def test_invocation_notifications_torch_and_category(sample: Sample) -> None:
    run = sample.log(category="vtlint-runtime")["runs"][0]
    assert run["automationDetails"] == {"id": "vtlint-runtime/"}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == sample.root.resolve().as_uri() + "/"
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False  # the harness failed
    assert invocation["properties"]["torchVersion"] == "2.13.0"
    notes = invocation["toolExecutionNotifications"]
    assert [(n["descriptor"]["id"], n["level"]) for n in notes] == [("runtime-fault", "error"), ("parse-error", "warning")]
    assert notes[1]["locations"][0]["physicalLocation"]["region"]["startLine"] == 3


def test_syntax_errors_carry_no_evidence(sample: Sample) -> None:
    props = _by_rule(sample.log())["VTL001"]["properties"]
    assert props == {"kind": "syntax-error"}


def test_output_is_deterministic_and_has_no_timestamps(sample: Sample) -> None:
    first = render_sarif(sample.result, root=sample.root)
    shuffled = CheckResult(**{**sample.result.__dict__, "findings": list(reversed(sample.result.findings))})
    shuffled.findings.sort(key=lambda f: f.sort_key)  # run_check sorts; so does every caller
    assert render_sarif(shuffled, root=sample.root) == first
    assert "Utc" not in first


def _prints(log: dict) -> dict[str, str]:
    return {r["ruleId"]: r["partialFingerprints"][NAMESPACE] for r in log["runs"][0]["results"]}


def test_fingerprints_survive_lines_inserted_above(tmp_path: Path) -> None:
    write_repo(tmp_path)
    before = _prints(build_log(sample_result(sample_findings()), Paths.for_root(tmp_path)))
    write_repo(tmp_path, shift=7)
    after = _prints(build_log(sample_result(sample_findings(shift=7)), Paths.for_root(tmp_path)))
    assert before == after and len(set(before.values())) == 3


def test_fingerprints_change_with_the_line_and_separate_twins(tmp_path: Path) -> None:
    write_repo(tmp_path)
    paths = Paths.for_root(tmp_path)
    base = sample_findings()[1]  # the baked constant on `return y * n`
    moved = base.with_(location=Location(MODULE, 6, 5))  # `return t * 3`: other code
    twin = base.with_(location=Location(MODULE, 11, 20, 11, 21))
    result = sample_result([base, moved, twin])
    prints = [r["partialFingerprints"][NAMESPACE] for r in build_log(result, paths)["runs"][0]["results"]]
    assert len(set(prints)) == 3


def test_a_project_below_the_repository_root(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    project = tmp_path / "sub" / "proj"
    project.mkdir(parents=True)
    finding = Finding("VTL001", Kind.SYNTAX_ERROR, Level.ERROR, Location("a b.py", 1, 1), "SyntaxError")
    result = sample_result([finding])
    log = assert_valid(build_log(result, Paths.for_root(project)))
    artifact = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": "sub/proj/a%20b.py", "uriBaseId": "%SRCROOT%"}


def test_files_outside_the_repository_get_file_uris(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".git").mkdir()
    outside = Location("../vendored lib/m.py", 3, 1)
    finding = Finding("VTL001", Kind.SYNTAX_ERROR, Level.ERROR, outside, "SyntaxError",
                      related=(Related(Location("in.py", 1, 1), "imported here"),))
    log = assert_valid(build_log(sample_result([finding]), Paths.for_root(repo)))
    run = log["runs"][0]
    artifact = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": (tmp_path / "vendored lib" / "m.py").as_uri()}
    assert "%20" in artifact["uri"]
    assert run["invocations"][0]["workingDirectory"]["uri"] == repo.as_uri() + "/"  # GitHub's checkout path (GH1006)
    assert run["results"][0]["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] == "%SRCROOT%"


def test_symlinked_file_reports_its_target(tmp_path: Path, run_cli) -> None:
    write_repo(tmp_path)
    (tmp_path / "link.py").symlink_to(tmp_path / "broken.py")
    result = run_cli("check", tmp_path, "--no-cache", "--format", "sarif", cwd=tmp_path)
    log = assert_valid(result.output)
    results = [r for r in log["runs"][0]["results"] if r["ruleId"] == "VTL001"]
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results] == ["broken.py"]


def test_empty_run_is_valid(tmp_path: Path) -> None:
    log = assert_valid(build_log(CheckResult(), Paths.for_root(tmp_path)))
    assert log["runs"][0]["results"] == [] and "rules" not in log["runs"][0]["tool"]["driver"]


def test_degenerate_locations_still_valid(tmp_path: Path) -> None:
    bad = Finding("VTL001", Kind.SYNTAX_ERROR, Level.ERROR, Location("x.py", 0, 0, 0, 0), "SyntaxError [at](1) `[`")
    log = assert_valid(build_log(sample_result([bad]), Paths.for_root(tmp_path)))
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1}


def test_the_validator_catches_what_github_rejects(sample: Sample) -> None:
    log = sample.log()
    result = log["runs"][0]["results"][0]
    result["level"] = "fatal"
    result["message"]["text"] = ""
    result["ruleIndex"] = 7
    del result["locations"][0]["physicalLocation"]["region"]
    log["runs"][0]["tool"]["driver"]["rules"][0]["properties"]["precision"] = "certain"
    found = "\n".join(problems(log))
    for expected in ("schema: /runs/0/results/0/level", "empty string", "ruleIndex: 7", "startLine: missing (GH1003)",
                     "precision: 'certain'"):
        assert expected in found


def test_unknown_codes_and_unreadable_files_still_give_a_valid_log(tmp_path: Path, run_cli) -> None:
    odd = Finding("VTL499", Kind.RECOMPILE, Level.WARNING, Location("gone.py", 4, 1), "seen at runtime only")
    log = assert_valid(build_log(sample_result([odd]), Paths.for_root(tmp_path)))
    (rule,) = log["runs"][0]["tool"]["driver"]["rules"]
    assert (rule["id"], rule["name"]) == ("VTL499", "unknown-rule")
    (tmp_path / "pyproject.toml").write_text("[tool.vtlint]\n")
    (tmp_path / "latin.py").write_bytes(b"x = '\xe9t\xe9'\n")  # not UTF-8, no coding cookie
    result = run_cli("check", ".", "--no-cache", "--format", "sarif", cwd=tmp_path)
    log = assert_valid(result.output)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["VTL002"]


def test_empty_spans_are_widened_to_the_code_of_their_line(tmp_path: Path) -> None:
    write_repo(tmp_path)
    (tmp_path / MODULE).write_text(SOURCE.replace("g(torch.ones(2), 4)", "g(torch.ones(2), 4)  # n = 4: recompiles"))
    here = Finding("VTL101", Kind.BAKED_CONSTANT, Level.WARNING, Location(MODULE, 16, 1), "n changes",
                   related=(Related(Location(MODULE, 11, 5), "guarded here"),),
                   fix=Fix("insert", (Edit(Location(MODULE, 16, 1), "# "),), safe=True))
    (result,) = build_log(sample_result([here]), Paths.for_root(tmp_path))["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 16, "startColumn": 1, "endLine": 16, "endColumn": 20}
    assert result["relatedLocations"][0]["physicalLocation"]["region"]["endColumn"] == 17  # `return y * n`
    deleted = result["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"]
    assert deleted == {"startLine": 16, "startColumn": 1, "endLine": 16, "endColumn": 1}  # an insertion stays one


def test_missing_paths_are_error_notifications(tmp_path: Path, run_cli) -> None:
    write_repo(tmp_path)
    result = run_cli("check", "broken.py", "no such.py", "--no-cache", "--format", "sarif", "-o", "o.sarif", cwd=tmp_path)
    assert result.exit_code == 2
    log = assert_valid((tmp_path / "o.sarif").read_text(encoding="utf-8"))
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"][0] == {
        "descriptor": {"id": "io-error"}, "level": "error", "message": {"text": "no such.py: no such file or directory"}
    }
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["VTL001"]  # the rest is still reported
