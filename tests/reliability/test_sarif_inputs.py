"""`vtlint merge` and `--baseline` inputs (issue 16, item 10): a hostile or broken
log is a one-line error (exit 2), never a traceback, and merge never emits SARIF
that fails the schema. Fixed bad inputs, then fuzzing: a valid log with one node
replaced by arbitrary JSON."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reliability.corpus import GOOD

SCALE = int(os.environ.get("VTLINT_FUZZ_EXAMPLES", "0"))
REPO = Path(__file__).parents[2]


def _validator():
    spec = importlib.util.spec_from_file_location("validate_sarif", REPO / "scripts" / "validate_sarif.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.schema_problems


schema_problems = _validator()


@pytest.fixture(scope="module")
def valid_log(tmp_path_factory: pytest.TempPathFactory) -> dict:
    from click.testing import CliRunner

    from vtlint.cli import main

    root = tmp_path_factory.mktemp("valid")
    (root / "good.py").write_bytes(GOOD)
    cwd = os.getcwd()
    os.chdir(root)
    try:
        result = CliRunner().invoke(main, ["check", ".", "--no-cache", "--format", "sarif"])
    finally:
        os.chdir(cwd)
    log = json.loads(result.stdout)
    assert log["runs"][0]["results"] and not schema_problems(log)
    return log


def _with(log: dict, path: tuple, value) -> dict:
    log = json.loads(json.dumps(log))
    node = log
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return log


BAD = {
    "rule_id_5": (("runs", 0, "results", 0, "ruleId"), 5),
    "run_not_object": (("runs", 0), 3),
    "results_not_list": (("runs", 0, "results"), {"a": 1}),
    "result_not_object": (("runs", 0, "results", 0), "x"),
    "message_missing_text": (("runs", 0, "results", 0, "message"), {}),
    "bad_level": (("runs", 0, "results", 0, "level"), "fatal"),
    "line_zero": (("runs", 0, "results", 0, "locations", 0, "physicalLocation", "region", "startLine"), 0),
    "uri_number": (("runs", 0, "results", 0, "locations", 0, "physicalLocation", "artifactLocation", "uri"), 7),
    "fingerprint_list": (("runs", 0, "results", 0, "partialFingerprints"), [1]),
    "rules_not_objects": (("runs", 0, "tool", "driver", "rules"), [1, 2]),
    "category_number": (("runs", 0, "automationDetails"), {"id": 3}),
    "tool_not_object": (("runs", 0, "tool"), []),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_merge_refuses_an_invalid_log(run_cli, tmp_path: Path, valid_log: dict, name: str) -> None:
    path, value = BAD[name]
    (tmp_path / "bad.sarif").write_text(json.dumps(_with(valid_log, path, value)))
    (tmp_path / "good.sarif").write_text(json.dumps(valid_log))
    result = run_cli("merge", "good.sarif", "bad.sarif", cwd=tmp_path)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("vtlint: error: bad.sarif: ") and len(result.stderr.splitlines()) == 1


RAW = {
    "deep_arrays": b"[" * 100_000 + b"]" * 100_000,
    "deep_objects": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "deep_in_a_result": b'{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"vtlint"}},"results":['
                        + b"[" * 20_000 + b"]" * 20_000 + b"]}]}",
    "not_utf8": b'{"version": "2.1.0", "runs": [], "x": "\xff"}',
    "truncated": b'{"version": "2.1.0", "runs": [',
    "empty": b"",
}


@pytest.mark.parametrize("name", sorted(RAW))
def test_merge_and_baseline_refuse_raw_junk_with_one_line(run_cli, tmp_path: Path, name: str) -> None:
    (tmp_path / "good.py").write_bytes(GOOD)
    (tmp_path / "junk.sarif").write_bytes(RAW[name])
    merged = run_cli("merge", "junk.sarif", cwd=tmp_path)
    checked = run_cli("check", ".", "--no-cache", "--baseline", "junk.sarif")
    for result in (merged, checked):
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output and len(result.stderr.splitlines()) == 1, result.stderr


@pytest.mark.parametrize("kind", ["fifo", "dev_zero"])
def test_merge_and_baseline_read_only_regular_files(run_cli, tmp_path: Path, kind: str) -> None:
    (tmp_path / "good.py").write_bytes(GOOD)
    if kind == "fifo":
        os.mkfifo(tmp_path / "in.sarif")
    else:
        (tmp_path / "in.sarif").symlink_to("/dev/zero")
    for args in (["merge", "in.sarif"], ["check", ".", "--no-cache", "--baseline", "in.sarif"]):
        result = run_cli(*args, cwd=tmp_path)
        assert result.exit_code == 2 and "not a regular file" in result.stderr, result.output


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*prefix, i))


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=5),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                     max_leaves=6)


@settings(max_examples=SCALE or 60, deadline=None, derandomize=not SCALE, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(pick=st.integers(0, 10_000), value=_JSON)
def test_fuzzed_logs_merge_into_valid_sarif_or_are_refused(run_cli, tmp_path: Path, valid_log: dict, pick: int,
                                                           value) -> None:
    paths = [p for p in _paths(valid_log) if p]
    path = paths[pick % len(paths)]
    (tmp_path / "fuzzed.sarif").write_text(json.dumps(_with(valid_log, path, value)))
    (tmp_path / "good.sarif").write_text(json.dumps(valid_log))
    result = run_cli("merge", "good.sarif", "fuzzed.sarif", cwd=tmp_path)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert len(result.stderr.splitlines()) == 1, result.stderr
        return
    assert result.exit_code == 0, result.output
    assert schema_problems(json.loads(result.stdout)) == [], (path, value)
    baseline = run_cli("check", ".", "--no-cache", "--baseline", "fuzzed.sarif")
    assert baseline.exit_code in (0, 1, 2) and "Traceback" not in baseline.output
