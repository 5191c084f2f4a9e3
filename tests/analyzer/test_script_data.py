"""The data a script computes at its top level, as its compiled calls find it: data files it reads
(variables/data_files), sets it builds (variables/sets), nested data decoded by recursion."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from vtlint.analyzer import Prediction
from vtlint.trace import Action

Predict = Callable[..., Prediction]

READS = """
    import json
    import os

    import torch

    with open(os.path.join("conf", "model.json"), encoding="utf-8") as f:
        CFG = json.load(f)
    LAYERS = 4 if os.path.isdir("conf") else 0


    @torch.compile
    def f(x):
        return x * CFG["scale"] + LAYERS


    f(torch.ones(2))
"""


def values(prediction: Prediction) -> dict[str, str | None]:
    return {e.source or "": e.value for e in prediction.events if e.action is Action.WRAP}


def test_a_data_file_the_script_reads_gives_its_values(predict: Predict) -> None:
    found = values(predict({"run.py": READS, "conf/model.json": '{"scale": 3}'}))
    assert found["G['CFG']['scale']"] == "3"
    assert found["G['LAYERS']"] == "4"


def test_a_changed_data_file_redoes_a_cached_walk(predict: Predict, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(tmp_path / ".cache"))
    assert values(predict({"run.py": READS, "conf/model.json": '{"scale": 3}'}, use_cache=True))[
        "G['CFG']['scale']"] == "3"
    assert values(predict({"conf/model.json": '{"scale": 5}  '}, use_cache=True))["G['CFG']['scale']"] == "5"


def test_files_outside_the_root_or_too_large_stay_unknown(predict: Predict, tmp_path: Path) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-outside.json"
    outside.write_text('{"scale": 3}', encoding="utf-8")
    script = READS.replace('os.path.join("conf", "model.json")', repr(str(outside)))
    assert values(predict({"run.py": script})).get("G['CFG']['scale']") is None
    padded = '{"scale": 3, "pad": "' + "x" * 250_000 + '"}'
    assert values(predict({"run.py": READS, "conf/model.json": padded})).get("G['CFG']['scale']") is None


def test_links_out_of_the_root_and_fifos_are_not_read(predict: Predict, tmp_path: Path) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-secret.json"
    outside.write_text('{"scale": 3}', encoding="utf-8")
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "model.json").symlink_to(outside)
    assert values(predict({"run.py": READS})).get("G['CFG']['scale']") is None
    (tmp_path / "conf" / "model.json").unlink()
    os.mkfifo(tmp_path / "conf" / "model.json")  # opening it to read would wait for a writer forever
    assert values(predict({"run.py": READS})).get("G['CFG']['scale']") is None


def test_sets_answer_as_python_does(predict: Predict) -> None:
    found = values(predict({"run.py": """
        import torch

        KINDS = {"relu", "gelu"}
        seen = set()
        seen.add("a")
        seen.update(["b", "c"])
        seen.discard("c")
        BOTH = frozenset(["a", "b"])
        UNION = (seen | {"z"}) - {"b"}
        FLAGS = {"on": "gelu" in KINDS, "same": seen == BOTH, "sub": {"a"} <= seen, "n": len(UNION)}


        @torch.compile
        def f(x, act):
            if act in KINDS:
                x = x + 1
            return x * FLAGS["n"] + FLAGS["on"] + FLAGS["same"] + FLAGS["sub"] + len(BOTH)


        f(torch.ones(2), "relu")
    """}))
    assert found["G['KINDS']"] == "{'gelu', 'relu'}"
    assert found["G['BOTH']"] == "frozenset({'a', 'b'})"
    assert [found[f"G['FLAGS']['{k}']"] for k in ("n", "on", "same", "sub")] == ["2", "True", "True", "True"]


def test_a_set_of_an_unknown_element_answers_nothing(predict: Predict) -> None:
    found = values(predict({"run.py": """
        import random

        import torch

        NAMES = {"a", random.choice(["b", "c"])}
        HAS = "b" in NAMES


        @torch.compile
        def f(x):
            return x + HAS


        f(torch.ones(2))
    """}))
    assert found["G['HAS']"] is None


def test_eager_recursion_over_nested_data_is_followed_and_bounded(predict: Predict) -> None:
    found = values(predict({"run.py": """
        import torch


        def decode(obj):
            if isinstance(obj, dict):
                return {k: decode(v) for k, v in obj.items()}
            return obj


        def forever(n):
            return forever(n + 1)


        CFG = decode({"a": {"b": {"c": 7}}})
        LOST = forever(0)


        @torch.compile
        def f(x):
            return x * CFG["a"]["b"]["c"]


        f(torch.ones(2))
    """}))
    assert found["G['CFG']['a']['b']['c']"] == "7"
