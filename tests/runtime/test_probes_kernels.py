"""Probes and Inductor kernels against real torch (CPU; the Triton test needs a GPU)."""

from __future__ import annotations

import glob
import sys
import textwrap

import pytest

from oracle import observe
from vtlint.runtime.step import kernel_summary, run_step
from vtlint.runtime.structured_trace import TraceFacts, literal_in_kernels
from vtlint.trace import Action

pytestmark = pytest.mark.torch

PROGRAM = '''
import sys

import torch
from torch import nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = 3

    def forward(self, x):
        return x * self.k


@torch.compile(backend="eager")
def f(x, n):
    return x + n


def main():
    x = torch.ones(2)
    model = torch.compile(Scale(), backend="eager")
    total = f(x, 3).sum() + model(x).sum()
    with open(sys.argv[1], "w") as out:
        out.write(f"{total.item()} {model.k}\\n")


main()
'''


def test_probes_record_the_failing_guard_and_change_nothing(tmp_path):
    (tmp_path / "prog.py").write_text(textwrap.dedent(PROGRAM).lstrip())
    file = str(tmp_path / "prog.py")
    plan = [{"file": file, "function": "f", "source": "L['n']"},
            {"file": file, "function": "forward", "source": "L['self'].k"}]
    bare = run_step([sys.executable, "prog.py", "bare.txt"], tmp_path, timeout=120)
    probed = run_step([sys.executable, "prog.py", "probed.txt"], tmp_path, timeout=120, probe=True, probe_plan=plan)
    assert bare.notifications == [] and probed.notifications == []
    assert (tmp_path / "bare.txt").read_text() == (tmp_path / "probed.txt").read_text() == "14.0 3\n"
    by_source = {p["source"]: p for p in probed.probes}
    assert by_source["L['n']"]["failed_guard"] == "n == 3" and by_source["L['n']"]["new"] == "4"
    assert by_source["L['self'].k"]["failed_guard"] == "self.k == 3"
    assert by_source["L['self'].k"]["entry"] == "prog.py:Scale.forward"
    # the probes' own compiles are not harness facts
    assert [e for e in probed.events if e.action is Action.RECOMPILE] == []
    assert {(e.action, e.entry, e.source) for e in probed.events} == {(e.action, e.entry, e.source) for e in bare.events}
    wrap = next(e for e in probed.events if e.action is Action.WRAP and e.source == "L['n']")
    assert wrap.detail["probe"]["recompiled"] is True


def test_inductor_cpp_kernels_and_baked_immediates():
    program = """
        import torch

        @torch.compile
        def f(x, n):
            return (x * n).sin() + 7.5

        def run():
            f(torch.randn(16), 3)
    """
    seen = observe({"ind": program}, backend="default", timeout=300)["ind"]
    assert seen.error is None
    kernels = [k for c in seen.compiles for out in c.output_code for k in out.kernels]
    assert kernels and all(k.kind == "cpp" and k.name.startswith("cpp_fused_") for k in kernels)
    assert literal_in_kernels("7.5", kernels) and literal_in_kernels("3", kernels)
    wrap = next(e for e in seen.of(Action.WRAP) if e.source == "L['n']")
    assert wrap.detail["kernel_immediate"] is True
    summary = kernel_summary(TraceFacts(compiles=seen.compiles))
    assert summary["device"] == "cpu" and summary["triton"] == 0 and "Triton kernels need a GPU" in summary["note"]


@pytest.mark.skipif(not glob.glob("/dev/nvidia[0-9]*"), reason="Triton kernels need a GPU (no NVIDIA device here)")
def test_triton_kernels_on_gpu():
    program = """
        import torch

        @torch.compile
        def f(x, n):
            return (x * n).sin() + 7.5

        def run():
            f(torch.randn(1024, device="cuda"), 3)
    """
    seen = observe({"gpu": program}, backend="default", timeout=600)["gpu"]
    if seen.error and "CUDA" in seen.error:
        pytest.skip(f"torch has no usable CUDA here: {seen.error}")
    kernels = [k for c in seen.compiles for out in c.output_code for k in out.kernels]
    triton = [k for k in kernels if k.kind == "triton"]
    assert triton and all(k.name.startswith("triton_") for k in triton)
    assert literal_in_kernels("7.5", triton)
    assert kernel_summary(TraceFacts(compiles=seen.compiles))["device"] == "gpu"


def test_probe_hook_is_a_no_op_without_torch(tmp_path):
    """The injected sitecustomize must not import torch or break a plain program."""
    (tmp_path / "plain.py").write_text("import sys\nopen('out.txt', 'w').write(str('torch' in sys.modules))\n")
    facts = run_step([sys.executable, "plain.py"], tmp_path, timeout=60, probe=True)
    assert facts.harness["exit_code"] == 0 and facts.probes == []
    assert (tmp_path / "out.txt").read_text() == "False"
