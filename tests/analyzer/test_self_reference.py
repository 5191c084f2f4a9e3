"""Regression: a self-referential local binding (`y = y`, `a = b; b = a`) used as a
call argument once sent entry discovery into endless recursion (a spurious VTL001
"too complex" for the whole file, and an internal error under --assume-compiled)."""

from pathlib import Path

from vtlint.check import run_check
from vtlint.config import Config

SOURCE = """\
import torch

def g(y):
    return y + 1

def f(y):
    y = y
    a = b = None
    a = b
    b = a
    g(a)
    return torch.compile(g)(y)
"""


def test_self_referential_bindings_end(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SOURCE)
    for assume in ((), ("forward",)):
        result = run_check([tmp_path], Config(root=tmp_path, assume_compiled=assume), use_cache=False)
        assert [f.code for f in result.findings if f.code.startswith("VTL0")] == []
        assert not [n for n in result.notifications if "too complex" in n.message or n.kind == "internal"]
