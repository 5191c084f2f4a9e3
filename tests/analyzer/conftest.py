"""Run the static pass over small projects written to a temporary folder."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from vtlint.analyzer import Prediction, analyze
from vtlint.analyzer.files import discover
from vtlint.config import Config


@pytest.fixture
def predict(tmp_path: Path) -> Callable[..., Prediction]:
    """predict({"mod.py": source, ...}, **config changes) -> the Prediction (no cache)."""

    def run(files: dict[str, str], jobs: int = 1, use_cache: bool = False, **changes: object) -> Prediction:
        for rel, text in files.items():
            target = tmp_path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        config = Config(root=tmp_path).with_(**changes)
        found = discover([tmp_path], config).files
        return analyze(found, config, jobs=jobs, use_cache=use_cache)

    return run
