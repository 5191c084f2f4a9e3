"""CI workflows: `--shard K/N`, `vtlint merge`, `--baseline` / `--write-baseline`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sarif_support import Sample, assert_valid, sample_findings, sample_result

from vtlint.findings import Evidence, Location
from vtlint.report.fingerprint import NAMESPACE
from vtlint.report.sarif import dump
from vtlint.report.sarif_github import enforce_limits
from vtlint.report.sarif_merge import MergeError, joined_evidence, merge_logs
from vtlint.report.shard import Shard, shard_of

BROKEN = "def f(x:\n    return x\n"


def _repo(root: Path, count: int = 12) -> Path:
    (root / ".git").mkdir()
    (root / "pyproject.toml").write_text("[tool.vtlint]\n", encoding="utf-8")
    for i in range(count):
        folder = root / ("pkg" if i % 2 else "dir with space")
        folder.mkdir(exist_ok=True)
        (folder / f"m{i}_é.py").write_text("x = 1\n" * (i % 3) + BROKEN, encoding="utf-8")
    return root


def _results(log: dict) -> list[dict]:
    return log["runs"][0]["results"]


def test_shard_parse() -> None:
    assert Shard.parse("2/4") == Shard(2, 4)
    for bad in ("0/4", "5/4", "2", "a/b", "1/0", "-1/2"):
        with pytest.raises(ValueError):
            Shard.parse(bad)


def test_shards_are_disjoint_cover_everything_and_stable() -> None:
    names = [f"src/mod{i}/file_{i * 7}.py" for i in range(400)]
    owners = [[k for k in range(1, 5) if Shard(k, 4).owns(n)] for n in names]
    assert all(len(o) == 1 for o in owners)
    sizes = [sum(o == [k] for o in owners) for k in range(1, 5)]
    assert min(sizes) > 60  # spread, not all in one shard
    assert shard_of("src/a.py", 4) == 3  # sha256: the same on every machine, unlike the salted hash()


def test_shard_then_merge_equals_the_unsharded_run(run_cli, tmp_path: Path) -> None:
    root = _repo(tmp_path)
    full = run_cli("check", ".", "--no-cache", "--format", "sarif", "-o", "full.sarif", cwd=root)
    assert full.exit_code == 1
    shards = []
    for k in (1, 2, 3):
        out = root / f"shard{k}.sarif"
        run_cli("check", ".", "--no-cache", "--format", "sarif", "--shard", f"{k}/3", "-o", out, cwd=root)
        shards.append(assert_valid(out.read_text(encoding="utf-8")))
        assert shards[-1]["runs"][0]["invocations"][0]["properties"]["shard"] == f"{k}/3"
    counts = [len(_results(s)) for s in shards]
    assert all(counts) and sum(counts) == 12
    merged = run_cli("merge", *[f"shard{k}.sarif" for k in (1, 2, 3)], "-o", "all.sarif", cwd=root)
    assert merged.exit_code == 0, merged.output
    unsharded = assert_valid((root / "full.sarif").read_text(encoding="utf-8"))
    combined = assert_valid((root / "all.sarif").read_text(encoding="utf-8"))
    assert combined["runs"][0]["invocations"][0]["properties"]["filesAnalyzed"] == 12
    assert combined == unsharded


def test_merge_removes_duplicates_and_runtime_evidence_upgrades(sample: Sample) -> None:
    static = sample.log()
    runtime = sample.log(category="vtlint")
    for result in _results(runtime):
        if result["ruleId"] == "VTL201":
            result["properties"]["evidence"] = "runtime-only"
            result["properties"]["runtime"] = {"graph_breaks": 1}
    merged = assert_valid(merge_logs([static, runtime]))
    by_rule = {r["ruleId"]: r for r in _results(merged)}
    assert len(_results(merged)) == 3
    assert by_rule["VTL201"]["properties"]["evidence"] == "confirmed"
    assert by_rule["VTL201"]["properties"]["runtime"] == {"graph_breaks": 1}  # the runtime's record wins
    assert by_rule["VTL101"]["properties"]["evidence"] == "confirmed"


def test_merge_is_idempotent_and_order_free(sample: Sample) -> None:
    log = sample.log()
    assert merge_logs([log]) == log
    assert merge_logs([log, log]) == log
    other = sample.log()
    other["runs"][0]["results"].reverse()
    assert merge_logs([other, log])["runs"][0]["results"] == log["runs"][0]["results"]


def test_joined_evidence() -> None:
    assert joined_evidence(["predicted", "runtime-only"]) == "confirmed"
    assert joined_evidence(["predicted", "refuted"]) == "refuted"
    assert joined_evidence(["predicted", "predicted"]) == "predicted"
    assert joined_evidence(["runtime-only"]) == "runtime-only"
    assert joined_evidence(["refuted", "confirmed"]) == "confirmed"


def test_merge_refuses_foreign_runs_and_mixed_categories(sample: Sample) -> None:
    ours = sample.log()
    foreign = json.loads(json.dumps(ours))
    foreign["runs"][0]["tool"]["driver"]["name"] = "CodeQL"
    with pytest.raises(MergeError, match="CodeQL"):
        merge_logs([ours, foreign])
    other = sample.log(category="nightly")
    with pytest.raises(MergeError, match="--category"):
        merge_logs([ours, other])
    merged = assert_valid(merge_logs([ours, other], category="all"))
    assert merged["runs"][0]["automationDetails"] == {"id": "all/"}


def test_merge_applies_limits(sample: Sample) -> None:
    logs = []
    for shift in range(4):  # the same findings in four files: 12 distinct results
        findings = [f.with_(location=Location(f"f{shift}.py", f.location.line)) for f in sample_findings()]
        logs.append(Sample(sample.root, sample_result(findings)).log())
    assert len(_results(merge_logs(logs))) == 12
    log = merge_logs(logs)
    enforce_limits(log, max_results=5)
    assert len(_results(assert_valid(log))) == 5
    assert {r["level"] for r in _results(log)} == {"error"}  # the most severe are kept
    assert [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]] == ["VTL001", "VTL201"]


def test_merge_cli_errors(run_cli, tmp_path: Path) -> None:
    (tmp_path / "x.sarif").write_text("{not json")
    result = run_cli("merge", tmp_path / "x.sarif")
    assert result.exit_code == 2 and "not JSON" in result.output
    assert run_cli("merge", tmp_path / "none.sarif").exit_code == 2


def test_baseline_hides_old_findings_even_after_lines_move(run_cli, tmp_path: Path) -> None:
    root = _repo(tmp_path, count=3)
    made = run_cli("check", ".", "--no-cache", "--write-baseline", "base.sarif", "--format", "json", cwd=root)
    assert made.exit_code == 1
    assert len(_results(assert_valid((root / "base.sarif").read_text(encoding="utf-8")))) == 3
    for path in sorted(root.rglob("m*.py")):  # shift every finding down
        path.write_text("import os\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    quiet = run_cli("check", ".", "--no-cache", "--baseline", "base.sarif", "--format", "sarif", cwd=root)
    assert quiet.exit_code == 0, quiet.output
    log = json.loads(quiet.output[quiet.output.index("{"):])
    assert _results(log) == []
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert notes[-1]["message"]["text"] == "3 findings in the baseline base.sarif not reported"
    (root / "pkg" / "new.py").write_text(BROKEN + BROKEN, encoding="utf-8")
    (root / "pkg" / "m1_é.py").write_text("def g(y:\n    return y + 1\n", encoding="utf-8")  # the lines edited
    fresh = run_cli("check", ".", "--no-cache", "--baseline", "base.sarif", "--format", "sarif", "-o", "new.sarif", cwd=root)
    assert fresh.exit_code == 1
    new = assert_valid((root / "new.sarif").read_text(encoding="utf-8"))
    uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in _results(new))
    assert uris == ["pkg/m1_%C3%A9.py", "pkg/new.py"]
    old = {r["partialFingerprints"][NAMESPACE] for r in _results(json.loads((root / "base.sarif").read_text()))}
    assert not old & {r["partialFingerprints"][NAMESPACE] for r in _results(new)}


def test_bad_baseline_and_shard_are_usage_errors(run_cli, tmp_path: Path) -> None:
    root = _repo(tmp_path, count=1)
    (root / "junk.sarif").write_text("[]")
    result = run_cli("check", ".", "--no-cache", "--baseline", "junk.sarif", cwd=root)
    assert result.exit_code == 2 and "not a SARIF log" in result.output
    assert run_cli("check", ".", "--no-cache", "--baseline", "absent.sarif", cwd=root).exit_code == 2
    result = run_cli("check", ".", "--shard", "4/3", cwd=root)
    assert result.exit_code == 2 and "--shard" in result.output


def test_evidence_rank_matches_the_trace_merge() -> None:
    # `vtlint merge` joins runs as report/merge.py joins traces: same four values.
    assert {e.value for e in Evidence} == {"predicted", "confirmed", "refuted", "runtime-only"}
    assert dump({"a": 1}) == '{\n  "a": 1\n}\n'
