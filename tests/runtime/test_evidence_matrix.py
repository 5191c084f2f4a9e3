"""The evidence audit against torch: each case of `evidence_matrix` runs for real
(one harness process, backend="eager"), then `run_check` merges the prediction of
the case's files with what Dynamo did. `confirmed` must mean the runtime agreed,
`refuted` that it compiled the entry with the Source in scope and did otherwise,
and a matched runtime fact never comes back as `runtime-only`."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from evidence_matrix import CASES
from oracle import _run
from vtlint.check import CheckResult, RuntimeInput, run_check
from vtlint.config import Config
from vtlint.findings import Evidence, Finding
from vtlint.runtime.events import Observed, to_events
from vtlint.runtime.structured_trace import parse_trace_dir

pytestmark = pytest.mark.torch

Row = tuple[str, str, int, str | None, Evidence]  # code, path, line, source or gb id, evidence


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Observed, dict[str, str | None]]:
    root = tmp_path_factory.mktemp("matrix").resolve()
    for files in CASES.values():
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    errors, output = _run(root, list(CASES), "eager", timeout=300)
    observed = to_events(parse_trace_dir(root / ".trace"), root)
    assert observed.coverage, output[-2000:]
    return root, observed, errors


def check(case: str, matrix: tuple[Path, Observed, dict[str, str | None]]) -> CheckResult:
    root, observed, errors = matrix
    assert errors[case] is None, errors[case]
    mine = [e for e in observed.events if e.entry.startswith(case) or e.location.path.startswith(case)]
    coverage = {k: v for k, v in observed.coverage.items() if k.startswith(case)}
    runtime = Observed(mine, coverage)
    paths = [root / name for name in CASES[case] if not name.startswith("site-packages")]
    return run_check(paths, Config(root=root), use_cache=False,
                     runtime=RuntimeInput(mine, runtime.exercised, summary={"entries": [c.to_dict() for c in coverage.values()]}))


def rows(result: CheckResult) -> list[Row]:
    return [(f.code, f.location.path, f.location.line, f.source or f.gb_id, f.evidence) for f in result.findings]


def _no_repeats(result: CheckResult) -> None:
    """A runtime fact a prediction accounts for is not reported again as runtime-only."""
    judged = {(f.code, f.source) for f in result.findings if f.evidence is not Evidence.RUNTIME_ONLY and f.source}
    again = [f for f in result.findings if f.evidence is Evidence.RUNTIME_ONLY and (f.code, f.source) in judged]
    assert not again, [f.message for f in again]


def _find(result: CheckResult, code: str, source: str) -> Finding:
    return next(f for f in result.findings if f.code == code and f.source == source)


def test_same_file(matrix) -> None:
    result = check("m_same_file", matrix)
    assert ("VTL101", "m_same_file.py", 6, "L['n']", Evidence.CONFIRMED) in rows(result)
    assert ("VTL111", "m_same_file.py", 12, "L['n']", Evidence.CONFIRMED) in rows(result)
    _no_repeats(result)


@pytest.mark.parametrize("case, model", [("m_other_file", "m_other_file_model.py"),
                                         ("m_package", "m_package_lib/nn/model.py")])
def test_the_change_in_another_file_or_package_confirms(matrix, case: str, model: str) -> None:
    """The seed split in two files: the recompiles predicted in the caller's file are
    the ones Dynamo made, not refuted and repeated as runtime-only at the model."""
    result = check(case, matrix)
    found = rows(result)
    assert (("VTL111", f"{case}.py", 11, "L['k']", Evidence.CONFIRMED) in found
            and ("VTL111", f"{case}.py", 12, "L['opts'].gain", Evidence.CONFIRMED) in found), found
    for source in ("L['k']", "L['weights'][1]", "L['opts'].gain"):
        assert ("VTL101", model, 20, source, Evidence.CONFIRMED) in found
    assert not [f for f in result.findings if f.evidence in (Evidence.REFUTED, Evidence.RUNTIME_ONLY)
                and f.code != "VTL402"], found
    _no_repeats(result)


def test_a_method_whose_guarded_value_differs_is_refuted_with_both_values(matrix) -> None:
    result = check("m_method", matrix)
    step = _find(result, "VTL101", "L['self'].step")
    seen = step.runtime.get("value")
    if step.evidence is Evidence.CONFIRMED:
        assert seen == "0" and "as 0" in step.message
    else:
        assert step.evidence is Evidence.REFUTED and "== 0" in step.message, step.message
    assert _find(result, "VTL112", "L['self'].step").evidence is Evidence.CONFIRMED
    _no_repeats(result)


def test_a_nested_function(matrix) -> None:
    result = check("m_nested", matrix)
    assert ("VTL101", "m_nested.py", 6, "L['scale']", Evidence.CONFIRMED) in rows(result)
    read = _find(result, "VTL101", "L['n']")  # seen only at runtime: at the read, not at the def line
    assert (read.location.line, read.location.column, read.location.end_column) == (6, 20, 21)
    _no_repeats(result)


def test_a_nested_function_called_through_its_factory(matrix) -> None:
    result = check("m_nested", matrix)
    assert ("VTL101", "m_nested.py", 6, "L['n']", Evidence.CONFIRMED) in rows(result)
    assert ("VTL111", "m_nested.py", 14, "L['n']", Evidence.CONFIRMED) in rows(result)


def test_a_resume_frame_belongs_to_its_function(matrix) -> None:
    result = check("m_resume", matrix)
    found = rows(result)
    assert ("VTL202", "m_resume.py", 7, "GB0059", Evidence.CONFIRMED) in found
    assert ("VTL101", "m_resume.py", 8, "L['n']", Evidence.CONFIRMED) in found
    _no_repeats(result)


def test_a_submodule_is_inlined_and_its_attributes_join(matrix) -> None:
    result = check("m_submodule", matrix)
    found = rows(result)
    assert ("VTL101", "m_submodule.py", 13, "L['self'].mlp.scale", Evidence.CONFIRMED) in found, found
    assert not [f for f in result.findings if "relu" in (f.source or "")]  # ID_MATCH on a function is no constant
    inline = next(f for f in result.findings if f.code == "VTL301")
    assert inline.evidence is Evidence.CONFIRMED
    _no_repeats(result)


def test_a_submodule_compiled_as_its_own_frame_is_not_confirmed_inlined(matrix) -> None:
    result = check("m_own_frame", matrix)
    inlined = [f for f in result.findings if f.code == "VTL301" and "MLP.forward" in f.message]
    assert inlined and all(f.evidence is Evidence.REFUTED for f in inlined), [f.message for f in inlined]
    assert "own frame" in inlined[0].message


def test_the_compiled_function_changes_what_it_reads(matrix) -> None:
    result = check("m_same_function", matrix)
    found = rows(result)
    assert ("VTL101", "m_same_function.py", 13, "G['cfg'].scale", Evidence.CONFIRMED) in found, found
    assert ("VTL111", "m_same_function.py", 13, "G['cfg'].scale", Evidence.CONFIRMED) in found, found
    _no_repeats(result)


def test_an_installed_package_is_not_project_code(matrix) -> None:
    _, observed, _ = matrix
    assert not [e for e in observed.events if "site-packages" in e.location.path or "vendor" in e.entry]
    assert {"code": "vendored", "file": "m_installed_vendor/__init__.py", "compiles": 2} .items() <= next(
        u for u in observed.unlinked if u["code"] == "vendored").items()
    result = check("m_installed", matrix)
    assert not [f for f in result.findings if f.evidence is Evidence.RUNTIME_ONLY]


def test_a_decorated_entry_links_through_the_wrapper(matrix) -> None:
    """Dynamo compiles `wrapped_func`; its Sources `L['args'][0]`, `L['kwargs']['k']`
    are the method's `L['self']`, `L['k']`."""
    _, observed, _ = matrix
    assert "m_decorated.py:Block.forward" in observed.coverage
    assert observed.coverage["m_decorated.py:Block.forward"].via
    result = check("m_decorated", matrix)
    found = rows(result)
    for row in (("VTL101", "m_decorated.py", 14, "L['self'].scale", Evidence.CONFIRMED),
                ("VTL101", "m_decorated.py", 14, "L['k']", Evidence.CONFIRMED),
                ("VTL111", "m_decorated.py", 20, "L['k']", Evidence.CONFIRMED)):
        assert row in found, found
    assert not [f for f in result.findings if f.evidence is Evidence.RUNTIME_ONLY], found
    _no_repeats(result)


def test_defaults_read_through_a_decorator_are_the_parameters(matrix) -> None:
    """The compiled `wrapped_func` reads forward's defaults as `L['func'].__defaults__[0]`
    and `[1]`: they are forward's `bias` and `k`, and join the predictions spelled so."""
    result = check("m_wrapped_default", matrix)
    found = rows(result)
    for row in (("VTL101", "m_wrapped_default.py", 10, "L['bias']", Evidence.CONFIRMED),
                ("VTL101", "m_wrapped_default.py", 12, "L['k']", Evidence.CONFIRMED)):
        assert row in found, found
    assert not [f for f in result.findings if f.evidence is Evidence.RUNTIME_ONLY], found
    _no_repeats(result)
