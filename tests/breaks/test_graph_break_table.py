"""docs/graph-breaks.md is generated (scripts/graph_break_table.py) from the installed torch's
graph-break registry, the visibility classes, the rules and the goldens: it must be current, and
every id of the torch CI runs must be classified."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

from vtlint.rules.trace_rules import visibility
from vtlint.rules.trace_rules.snapshot import SHIPPED_DIR, current

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("graph_break_table", ROOT / "scripts" / "graph_break_table.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_table_is_current() -> None:
    table = _script()
    written = table.DOC.read_text(encoding="utf-8")
    version = re.match(r"# Graph-break coverage: torch (\S+)", written)
    snapshot = current()
    if version is None or version.group(1) != snapshot.torch_version:
        pytest.skip(f"the table is for torch {version.group(1) if version else '?'}, {snapshot.torch_version} "
                    "is installed")
    assert written == table.render(snapshot.data), "stale: run python scripts/graph_break_table.py"


def test_every_id_of_torch_2_13_is_classified() -> None:
    registry = json.loads((SHIPPED_DIR / "torch-2.13.0.json").read_text(encoding="utf-8"))["registry"]
    unclassified = [gb_id for gb_id in registry if visibility.classify(gb_id)[0] == visibility.UNCLASSIFIED]
    assert not unclassified
    assert set(visibility.CLASSES) <= set(registry), "a classified id torch 2.13 does not have"


def test_an_unknown_id_is_unclassified() -> None:
    assert visibility.classify("GB9999")[0] == visibility.UNCLASSIFIED
    assert visibility.classify("GB0170") == (visibility.STATIC, visibility.CLASSES["GB0170"][1])
