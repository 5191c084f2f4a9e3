"""Decisions are tested against the snapshot shipped in the package, so the fast
suite never builds one (that imports torch); torch-marked tests check the same
decisions against the installed torch."""

from __future__ import annotations

import pytest

from vtlint.analyzer import breaks
from vtlint.rules.trace_rules import snapshot


@pytest.fixture
def shipped(monkeypatch: pytest.MonkeyPatch) -> snapshot.Snapshot:
    path = snapshot.SHIPPED_DIR / "torch-2.13.0.json"  # the release the special cases were measured on
    snap = snapshot.Snapshot(snapshot._read(path) or {}, "shipped", path)
    monkeypatch.setattr(breaks, "_snapshot", lambda: snap)
    breaks.reset()
    yield snap
    breaks.reset()
