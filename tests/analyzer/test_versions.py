"""The order `packaging.version.parse` gives, which the walk answers without importing packaging."""

from __future__ import annotations

import itertools

import pytest

from vtlint.analyzer.variables.versions import version_key

VERSIONS = ["1.0.dev1", "1.0a1", "1.0a2.dev3", "1.0b1", "1.0rc1", "1.0", "1.0+cpu", "1.0.post1", "1.1",
            "2.6.0", "2.13.0+cpu", "2.13.1", "10.0", "1!0.1"]


@pytest.mark.parametrize(("left", "right"), list(itertools.combinations(VERSIONS, 2)))
def test_order_agrees_with_packaging(left: str, right: str) -> None:
    packaging = pytest.importorskip("packaging.version")
    theirs = (packaging.Version(left) < packaging.Version(right), packaging.Version(left) == packaging.Version(right))
    ours = (version_key(left) < version_key(right), version_key(left) == version_key(right))  # type: ignore[operator]
    assert ours == theirs, (left, right)


def test_trailing_zeros_compare_equal() -> None:
    assert version_key("2.6") == version_key("2.6.0")


def test_text_packaging_refuses_has_no_order() -> None:
    assert version_key("not a version") is None
