"""Saved runtime facts (`--runtime-facts FILE`, what `vtlint trace` writes) are checked
by field type when loaded (issue 35, item 10): a file with wrong field types loaded, then
crashed while merging or rendering (a raw traceback, exit 1, or "internal error", exit 2).
Now each is one line, "--runtime-facts: FILE: damaged facts file: /where: why", exit 2.
Fixed cases, then fuzzing: real facts with one node replaced by arbitrary JSON."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runtime.trace_data import relocate_log
from vtlint.runtime.step import facts_from_trace

SCALE = int(os.environ.get("VTLINT_FUZZ_EXAMPLES", "0"))
TESTS = Path(__file__).parents[1]
FORMATS = ("text", "json", "sarif", "github", "html")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The examples and the facts of their captured torch 2.13 trace (30 events, 5 entries)."""
    base = tmp_path_factory.mktemp("facts")
    root, trace = base / "project", base / "trace"
    shutil.copytree(TESTS.parent / "examples", root / "examples")
    trace.mkdir()
    for item in (TESTS / "runtime" / "data" / "examples").iterdir():
        text = item.read_text(encoding="utf-8")
        moved = relocate_log(text, "/project", str(root)) if item.suffix == ".log" else \
            text.replace("/project", str(root))
        (trace / item.name).write_text(moved, encoding="utf-8")
    facts = facts_from_trace(trace, root).to_dict()
    assert len(facts["events"]) > 20 and facts["coverage"]
    return root, facts


@pytest.fixture
def cached(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """One cache for every example here: the static pass of the examples is walked once."""
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "facts-cache"))
    monkeypatch.setenv("VTLINT_STATE_DIR", str(tmp_path_factory.getbasetemp() / "facts-state"))


def _with(facts: dict, path: tuple, value: object) -> dict:
    facts = json.loads(json.dumps(facts))
    node = facts
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return facts


def _check(run_cli, root: Path, facts: dict, fmt: str = "text"):
    (root / "facts.json").write_text(json.dumps(facts))
    result = run_cli("check", "examples", "--runtime-facts", "facts.json", "--format", fmt, cwd=root)
    assert "Traceback" not in result.output and "internal error" not in result.stderr, result.output
    return result


WRONG = {
    "a_line_that_is_text": (("events", 0, "location", "line"), "x", "/events/0/location/line"),
    "an_action_nobody_knows": (("events", 1, "action"), "fly", "/events/1/action"),
    "a_detail_count_that_is_text": (("events", 2, "detail"), {"graph_count": "3"}, "/events/2/detail/graph_count"),
    "related_without_a_location": (("events", 3, "related"), [{"message": "m"}], "/events/3/related/0"),
    "a_coverage_count_that_is_text": (("coverage", 0, "compiles"), "3", "/coverage/0/compiles"),
    "frames_of_lists": (("coverage", 0, "frames"), {"f": [1]}, "/coverage/0/frames/f"),
    "an_exit_code_that_is_text": (("harness",), {"command": "x", "exit_code": "0"}, "/harness/exit_code"),
    "a_harness_that_is_a_list": (("harness",), [1], "/harness"),
    "kernel_names_that_are_a_number": (("kernels", "names"), 5, "/kernels/names"),
    "a_level_nobody_knows": (("notifications",), [{"kind": "k", "message": "m", "level": "loud"}],
                             "/notifications/0/level"),
    "a_probe_that_is_a_number": (("probes",), [5], "/probes/0"),
    "unlinked_compiles_that_are_text": (("unlinked",), [{"code": "f", "compiles": "two"}], "/unlinked/0/compiles"),
    "a_torch_version_that_is_a_table": (("torch_version",), {"a": 1}, "/torch_version"),
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_a_wrong_field_type_is_a_damaged_facts_file_naming_it(run_cli, project: tuple[Path, dict], cached: None,
                                                              name: str) -> None:
    root, facts = project
    path, value, where = WRONG[name]
    result = _check(run_cli, root, _with(facts, path, value))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"vtlint: error: --runtime-facts: facts.json: damaged facts file: {where}")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_real_facts_render_in_every_format(run_cli, project: tuple[Path, dict], cached: None, fmt: str) -> None:
    root, facts = project
    result = _check(run_cli, root, facts, fmt)
    assert result.exit_code in (0, 1) and result.stdout, result.output


def _paths(node: object, prefix: tuple = ()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*prefix, i))


_SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.text(max_size=5)
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                           max_size=3), max_leaves=6)


@settings(max_examples=SCALE or 60, deadline=None, derandomize=not SCALE, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(pick=st.integers(0, 100_000), value=_JSON, fmt=st.sampled_from(FORMATS))
def test_fuzzed_facts_are_merged_or_refused_in_one_line(run_cli, project: tuple[Path, dict], cached: None, pick: int,
                                                        value: object, fmt: str) -> None:
    root, facts = project
    paths = [p for p in _paths(facts) if p]
    path = paths[pick % len(paths)]
    result = _check(run_cli, root, _with(facts, path, value), fmt)
    if result.exit_code == 2:
        assert result.stderr.startswith("vtlint: error: --runtime-facts: facts.json: "), (path, value, result.stderr)
        assert len(result.stderr.splitlines()) == 1, result.stderr
    else:
        assert result.exit_code in (0, 1) and result.stdout, (path, value, result.output)
