"""The data-dependent ops `breaks` decides are the installed torch's: the aten ops tagged
`dynamic_output_shape` (FakeTensor refuses them unless capture_dynamic_output_shape_ops)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from vtlint.analyzer import breaks

pytestmark = pytest.mark.torch

_TAGGED = """
import json, torch
names = set()
for name in torch._C._dispatch_get_all_op_names():
    if name.startswith("aten::"):
        packet = getattr(torch.ops.aten, name[6:].split(".")[0], None)
        for overload in packet.overloads() if packet is not None else ():
            if torch.Tag.dynamic_output_shape in getattr(packet, overload).tags:
                names.add(getattr(packet, overload).name())
print(json.dumps(sorted(names)))
"""
# Tagged ops the walk meets under another name, or decides elsewhere.
ELSEWHERE = {
    "aten::_unique": "unique", "aten::_unique2": "unique", "aten::unique_dim": "unique",
    "aten::unique_dim_consecutive": "unique_consecutive", "aten::_ctc_loss": "torch.nn.functional.ctc_loss",
    "aten::_ctc_loss.Tensor": "torch.nn.functional.ctc_loss", "aten::repeat_interleave.Tensor": "repeat_interleave",
    "aten::index.Tensor": "decide_boolean_mask", "aten::one_hot": "one_hot without num_classes (GB0246)",
    "aten::masked_select.out": "masked_select", "aten::nonzero.out": "nonzero",
    # not decided: torch.linalg.lstsq's rank/residuals are data-dependent only for some drivers
    "aten::linalg_lstsq": "", "aten::linalg_lstsq.out": "",
}


def test_dynamic_shape_ops_are_the_tagged_ones() -> None:
    done = subprocess.run([sys.executable, "-c", _TAGGED], capture_output=True, text=True, check=True, timeout=300)
    tagged = set(json.loads(done.stdout))
    plain = {name.removeprefix("aten::") for name in tagged if name not in ELSEWHERE}
    renamed = {python for python in ELSEWHERE.values() if python in breaks.DYNAMIC_SHAPE_OPS}
    assert plain | renamed == breaks.DYNAMIC_SHAPE_OPS, "the installed torch tags other ops than vtlint decides"
    assert set(ELSEWHERE) <= tagged, sorted(set(ELSEWHERE) - tagged)


_INPLACE_VIEW = """
import json, torch
names = []
for name in dir(torch.ops.aten):
    packet = getattr(torch.ops.aten, name)
    overloads = packet.overloads() if hasattr(packet, "overloads") else []
    # Dynamo reads the first overload's tags (variables/torch.py, "Inplace op on input tensor")
    if overloads and torch.Tag.inplace_view in getattr(packet, overloads[0]).tags:
        names.append(name)
print(json.dumps(sorted(names)))
"""


def test_inplace_view_ops_are_the_tagged_ones() -> None:
    done = subprocess.run([sys.executable, "-c", _INPLACE_VIEW], capture_output=True, text=True, check=True,
                          timeout=300)
    assert set(json.loads(done.stdout)) == breaks.INPLACE_VIEW_OPS
