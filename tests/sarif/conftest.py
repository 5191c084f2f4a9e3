"""Fixtures for the SARIF tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from sarif_support import Sample, sample_findings, sample_result, write_repo


@pytest.fixture
def sample(tmp_path: Path) -> Sample:
    write_repo(tmp_path)
    return Sample(tmp_path, sample_result(sample_findings()))
