"""Entry discovery: every way a program hands a function to torch.compile."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from vtlint.analyzer import Prediction
from vtlint.config import DynamoSettings
from vtlint.trace import Action

Predict = Callable[..., Prediction]


def entries(prediction: Prediction) -> dict[str, tuple[str, dict[str, object]]]:
    return {e.entry: (e.how, e.options) for e in prediction.entries}


@pytest.mark.parametrize(("source", "entry", "how", "options"), [
    ("import torch\n@torch.compile\ndef f(x):\n    return x\n", "m.py:f", "decorator", {}),
    ("import torch\n@torch.compile(fullgraph=True, dynamic=False, backend='eager', mode='reduce-overhead')\n"
     "def f(x):\n    return x\n", "m.py:f", "decorator",
     {"fullgraph": True, "dynamic": False, "backend": "eager", "mode": "reduce-overhead"}),
    ("import torch as T\ndef f(x):\n    return x\ng = T.compile(f, dynamic=True)\n", "m.py:f", "call", {"dynamic": True}),
    ("from torch import compile as tc\ndef f(x):\n    return x\ng = tc(f)\n", "m.py:f", "call", {}),
    ("import torch._dynamo\n@torch._dynamo.optimize('eager')\ndef f(x):\n    return x\n", "m.py:f", "decorator",
     {"backend": "eager"}),
    ("import torch\nfrom torch import nn\nclass M(nn.Module):\n    def forward(self, x):\n        return x\n"
     "m = torch.compile(M())\n", "m.py:M.forward", "call", {}),
    ("import torch\nfrom torch import nn\nclass M(nn.Module):\n    def forward(self, x):\n        return x\n"
     "def main():\n    model = M()\n    model.compile()\n", "m.py:M.forward", "module.compile", {}),
    ("import torch\nfrom torch import nn\nclass M(nn.Module):\n    def forward(self, x):\n        return x\n"
     "def main():\n    model = M()\n    fast = torch.compile(model, fullgraph=True)\n", "m.py:M.forward", "call",
     {"fullgraph": True}),
])
def test_compile_spellings_are_entries(predict: Predict, source: str, entry: str, how: str,
                                       options: dict[str, object]) -> None:
    found = entries(predict({"m.py": source}))
    assert found == {entry: (how, options)}


def test_a_local_function_named_compile_is_not_torch_compile(predict: Predict) -> None:
    source = "def compile(f):\n    return f\n\n@compile\ndef f(x):\n    return x\n\ng = compile(f)\n"
    assert predict({"m.py": source}).entries == []


def test_a_parameter_or_local_shadowing_an_import_is_not_torch_compile(predict: Predict) -> None:
    source = ("from torch import compile\nimport torch\n\n"
              "def shadowed(x):\n    return x\n\n"
              "def build(compile):\n    return compile(shadowed)\n\n"
              "def other():\n    torch = Helper()\n    return torch.compile(shadowed)\n\n"
              "def g(x):\n    return x\n\nh = compile(g)\n")
    assert entries(predict({"m.py": source})) == {"m.py:g": ("call", {})}


def test_entry_points_by_file_and_by_dotted_module(predict: Predict) -> None:
    files = {"pkg/__init__.py": "", "pkg/model.py": "def step(x, n):\n    return x * n\n",
             "other.py": "def g(x):\n    return x\n"}
    found = entries(predict(files, entry_points=("pkg/model.py:step", "other:g")))
    assert set(found) == {"pkg/model.py:step", "other.py:g"}
    assert all(how == "--entry" for how, _ in found.values())


def test_unknown_entry_point_is_a_notification(predict: Predict) -> None:
    prediction = predict({"m.py": "def f(x):\n    return x\n"}, entry_points=("m.py:nope",))
    assert prediction.entries == []
    assert any("m.py:nope" in n.message for n in prediction.notifications)


def test_assume_compiled_forward_follows_project_base_classes(predict: Predict) -> None:
    files = {
        "base.py": "import torch.nn as nn\n\nclass Base(nn.Module):\n    pass\n",
        "model.py": "from base import Base\n\nclass Net(Base):\n    def forward(self, x):\n        return x\n\n"
                    "class NotAModule:\n    def forward(self, x):\n        return x\n",
    }
    found = entries(predict(files, assume_compiled=("forward",)))
    assert found == {"model.py:Net.forward": ("assume-compiled", {})}


def test_module_dynamo_config_overrides_the_settings(predict: Predict) -> None:
    source = """
        import torch
        torch._dynamo.config.capture_scalar_outputs = True

        @torch.compile
        def f(x):
            return x * x.sum().item()
    """
    breaks = [e for e in predict({"m.py": source}).events if e.action is Action.GRAPH_BREAK]
    assert breaks == []
    without = [e for e in predict({"n.py": source.replace("True", "False")}).events if e.action is Action.GRAPH_BREAK]
    assert [e.gb_id for e in without if e.location.path == "n.py"] == ["GB0124"]


def test_mark_dynamic_is_recorded_on_the_entry(predict: Predict) -> None:
    source = """
        import torch

        @torch.compile
        def f(x):
            return x * 2

        def main():
            x = torch.ones(4)
            torch._dynamo.mark_dynamic(x, 0)
            f(x)
    """
    [entry] = predict({"m.py": source}).entries
    assert entry.options["marks"] == ["mark_dynamic(x) at line 9"]


def test_dynamic_true_bakes_no_int_value(predict: Predict) -> None:
    source = """
        import torch

        @torch.compile(dynamic=True)
        def f(x, n):
            return x * n

        def main():
            f(torch.ones(2), 3)
    """
    wraps = [e for e in predict({"m.py": source}).events if e.action is Action.WRAP]
    # a SymInt: guarded on its type only, nothing baked
    assert [(e.source, e.variable_tracker, e.guard_kind) for e in wraps] == [("L['n']", "SymNodeVariable",
                                                                               "TYPE_MATCH")]
    assert DynamoSettings().dynamic is None  # the default stays automatic
