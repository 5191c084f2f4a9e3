"""`vtlint check examples --runtime-command ...` with the examples' real harness
(Dynamo on CPU; backend forced to eager so it takes seconds, not Inductor's minute)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.torch

EXAMPLES = Path(__file__).parents[2] / "examples"
EAGER_HARNESS = (
    "import runpy, torch\n"
    "compile = torch.compile\n"
    "torch.compile = lambda model=None, **kw: compile(model, **{**kw, 'backend': 'eager'}) if model is not None "
    "else compile(**{**kw, 'backend': 'eager'})\n"
    "runpy.run_path('harness.py', run_name='__main__')\n"
)


def test_examples_with_their_harness(run_cli):
    command = shlex.join([sys.executable, "-c", EAGER_HARNESS])
    result = run_cli("check", ".", "--runtime-command", command, "--format", "json", "--exit-zero", "--no-cache",
                     cwd=EXAMPLES)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    runtime = report["runtime"]
    assert runtime["harness"]["exit_code"] == 0 and runtime["torch_version"].startswith("2.")
    compiles = {e["entry"]: e["compiles"] for e in runtime["entries"]}
    assert compiles["seed.py:f"] == 3 and compiles["step_counter.py:StepCounter.forward"] == 3
    evidence = {(f["path"], f["line"], f["source"] or f["gb_id"]): f["evidence"] for f in report["findings"]}
    assert evidence[("pitfalls.py", 8, "GB0170")] == "confirmed"
    assert evidence[("pitfalls.py", 16, "GB0059")] == "confirmed"
    assert evidence[("pitfalls.py", 23, "GB0124")] == "confirmed"
    seed = {f["source"]: f for f in report["findings"] if f["path"] == "seed.py" and f["code"] == "VTL111"}
    assert seed["L['n']"]["evidence"] == "confirmed"
    assert seed["L['n']"]["runtime"]["detail"]["failing_guard"] == "n == 3"
