"""End to end on the bundled examples: the analyzer's real findings through SARIF,
fingerprints across an edit, shards merged back, and the SARIF Multitool."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest
from sarif_support import REPO, assert_valid, validate_sarif

from vtlint.report.fingerprint import NAMESPACE

EXAMPLES = REPO / "examples"
RUNTIME_DATA = REPO / "tests" / "runtime" / "data"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose `examples/` is a copy of the bundled one (its own pyproject.toml)."""
    (tmp_path / ".git").mkdir()
    shutil.copytree(EXAMPLES, tmp_path / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _sarif(run_cli, cwd: Path, *args: str) -> dict:
    result = run_cli("check", "examples", "--no-cache", "--format", "sarif", "-o", "out.sarif", *args, cwd=cwd)
    assert result.exit_code in (0, 1), result.output
    return assert_valid((cwd / "out.sarif").read_text(encoding="utf-8"))


def _results(log: dict) -> list[dict]:
    return log["runs"][0]["results"]


def _start(result: dict) -> tuple[str, int]:
    physical = result["locations"][0]["physicalLocation"]
    return physical["artifactLocation"]["uri"], physical["region"]["startLine"]


def test_examples_sarif_is_valid_and_complete(run_cli, repo: Path) -> None:
    log = _sarif(run_cli, repo)
    results = _results(log)
    assert {r["ruleId"][:4] for r in results} >= {"VTL1", "VTL2"}  # baked constants and graph breaks
    assert all(_start(r)[0].startswith("examples/") for r in results)  # repository-relative
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert sorted({r["ruleId"] for r in results}) == [rule["id"] for rule in rules]
    breaks = [r for r in results if r["properties"].get("gbId")]
    assert breaks and all(r["properties"]["kind"] == "graph-break" for r in breaks)
    prints = [r["partialFingerprints"][NAMESPACE] for r in results]
    assert len(set(prints)) == len(prints)


def test_fingerprints_survive_lines_inserted_above_findings(run_cli, repo: Path) -> None:
    before = {r["partialFingerprints"][NAMESPACE]: _start(r) for r in _results(_sarif(run_cli, repo))}
    for path in (repo / "examples").glob("*.py"):
        path.write_text("# a licence header\n# of three lines\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    after = {r["partialFingerprints"][NAMESPACE]: _start(r) for r in _results(_sarif(run_cli, repo))}
    assert set(after) == set(before)
    assert all(after[fp] == (uri, line + 3) for fp, (uri, line) in before.items())


def test_shards_merged_equal_the_unsharded_run(run_cli, repo: Path) -> None:
    whole = _sarif(run_cli, repo)
    names = []
    for k in (1, 2, 3):
        _sarif(run_cli, repo, "--shard", f"{k}/3")
        names.append(f"shard{k}.sarif")
        (repo / "out.sarif").rename(repo / names[-1])
    merged = run_cli("merge", *names, "-o", "merged.sarif", cwd=repo)
    assert merged.exit_code == 0, merged.output
    combined = assert_valid((repo / "merged.sarif").read_text(encoding="utf-8"))
    assert combined == whole


def test_sarif_multitool_accepts_vtlint_logs(run_cli, repo: Path, tmp_path: Path) -> None:
    """The SARIF Multitool's SARIF and GitHub (Ghas) rules, on the examples' log and a
    log with findings outside the repository and past GitHub's limits."""
    multitool = validate_sarif.default_multitool()
    if multitool is None:
        pytest.skip("SARIF Multitool not installed: `make sarif-tools` (npm) installs it")
    log = _sarif(run_cli, repo)
    stressed = json.loads(json.dumps(log))
    result = _results(stressed)[0]
    result["locations"][0]["physicalLocation"]["artifactLocation"] = {"uri": (tmp_path / "outside dir" / "x.py").as_uri()}
    stressed["runs"][0]["invocations"][0]["workingDirectory"] = {"uri": repo.as_uri() + "/"}
    broken = json.loads(json.dumps(stressed))
    del _results(broken)[1]["locations"]  # GitHub needs a location: the multitool must say so
    files = [repo / "examples.sarif", repo / "stressed.sarif", repo / "broken.sarif"]
    for path, data in zip(files, (log, stressed, broken)):
        path.write_text(json.dumps(data), encoding="utf-8")
    found = validate_sarif.multitool_problems(files, multitool)
    assert found[files[0]][0] == [] and found[files[1]][0] == [], found
    assert any("GH1015" in e and "locations" in e for e in found[files[2]][0]), found


def _load_trace_data():
    """The runtime tests' helper that moves a captured trace to another root."""
    spec = importlib.util.spec_from_file_location("trace_data", RUNTIME_DATA.parent / "trace_data.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_runtime_evidence_in_sarif_and_merged_over_static(run_cli, repo: Path, tmp_path: Path) -> None:
    """A structured trace captured from torch 2.13 running the examples' harness (no torch
    needed): the runtime run's SARIF carries the evidence, and merging the static run
    into it changes nothing but confirms the same findings."""
    from vtlint.runtime.step import facts_from_trace

    trace = tmp_path / "trace"
    trace.mkdir()
    relocate = _load_trace_data().relocate_log
    for item in (RUNTIME_DATA / "examples").iterdir():
        text = item.read_text(encoding="utf-8")
        moved = relocate(text, "/project", str(repo)) if item.suffix == ".log" else text.replace("/project", str(repo))
        (trace / item.name).write_text(moved, encoding="utf-8")
    facts_from_trace(trace, repo / "examples").save(tmp_path / "facts.json")
    static = _sarif(run_cli, repo)
    (repo / "out.sarif").rename(repo / "static.sarif")
    runtime = _sarif(run_cli, repo, "--runtime-facts", str(tmp_path / "facts.json"))
    (repo / "out.sarif").rename(repo / "runtime.sarif")
    evidence = {r["partialFingerprints"][NAMESPACE]: r["properties"]["evidence"] for r in _results(runtime)}
    assert "confirmed" in evidence.values()
    static_prints = {r["partialFingerprints"][NAMESPACE] for r in _results(static)}
    assert static_prints <= set(evidence)  # the same findings, the same fingerprints
    merged = run_cli("merge", "static.sarif", "runtime.sarif", "-o", "merged.sarif", cwd=repo)
    assert merged.exit_code == 0, merged.output
    combined = assert_valid((repo / "merged.sarif").read_text(encoding="utf-8"))
    assert {r["partialFingerprints"][NAMESPACE]: r["properties"]["evidence"] for r in _results(combined)} == evidence
    assert _results(combined) == _results(runtime)
    files = combined["runs"][0]["invocations"][0]["properties"]["filesAnalyzed"]
    assert files == runtime["runs"][0]["invocations"][0]["properties"]["filesAnalyzed"]  # same files: not summed
