"""Installed packages' module summaries kept across runs (issue 33): a run that reads a package another
run read already takes each module's summary from the cache (one entry per module content, so per
installed version), parses only the modules its walks enter, and predicts what an uncached run does."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.analyzer.library_package import SCRIPTS, write_script
from vtlint.analyzer import Prediction, analyze
from vtlint.analyzer import index
from vtlint.analyzer.files import discover
from vtlint.config import Config


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A cache folder of this test's own, no installed module kept by this process yet; the installed
    modules each run summarises, by path."""
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("VTLINT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr(index, "_INSTALLED", type(index._INSTALLED)())
    summarised: list[str] = []
    real = index.summarize

    def counted(module: object, display: str, text: str, *args: object) -> object:
        summarised.append(display)
        return real(module, display, text, *args)

    monkeypatch.setattr(index, "summarize", counted)
    return summarised


def _check(folder: Path, use_cache: bool) -> Prediction:
    config = Config(root=folder)
    return analyze(discover([folder], config).files, config, use_cache=use_cache)


def _facts(prediction: Prediction) -> list[dict[str, object]]:
    return [e.to_dict() for e in prediction.events]


def test_a_second_run_reads_the_package_summaries_from_the_cache(site: Path, tmp_path: Path, fresh: list[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = sorted(SCRIPTS)[:2]
    write_script(tmp_path / first, first)
    write_script(tmp_path / second, second)
    _check(tmp_path / first, use_cache=True)
    read = set(fresh)
    assert any(path.endswith("tinylib/models/tiny/modeling_tiny.py") for path in read), read
    # another project (its walk is not cached) in a process that kept nothing: summaries from the cache
    monkeypatch.setattr(index, "_INSTALLED", type(index._INSTALLED)())
    fresh.clear()
    warm = _check(tmp_path / second, use_cache=True)
    assert not [path for path in fresh if path.startswith(site.as_posix())]
    monkeypatch.setattr(index, "_INSTALLED", type(index._INSTALLED)())
    uncached = _check(tmp_path / second, use_cache=False)
    assert _facts(warm) == _facts(uncached) and warm.entries == uncached.entries
    assert warm.events, "the package's frames are walked: there is something to compare"


def test_an_installed_module_changed_in_place_is_summarised_again(site: Path, tmp_path: Path, fresh: list[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Same size, same mtime, other content (a reinstall that kept both): the content is the key."""
    style = sorted(SCRIPTS)[0]
    write_script(tmp_path / style, style)
    config_file = site / "tinylib" / "models" / "tiny" / "configuration_tiny.py"
    before = config_file.read_text()
    assert "scale: float = 1.0" in before
    stat = config_file.stat()
    _check(tmp_path / style, use_cache=True)
    config_file.write_text(before.replace("scale: float = 1.0", "scale: float = 1.5"))
    os.utime(config_file, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    monkeypatch.setattr(index, "_INSTALLED", type(index._INSTALLED)())
    fresh.clear()
    (tmp_path / style / "run.py").write_text((tmp_path / style / "run.py").read_text() + "\n")  # not the cached walk
    _check(tmp_path / style, use_cache=True)
    assert config_file.as_posix() in fresh


def test_the_summary_key_covers_every_input(monkeypatch: pytest.MonkeyPatch) -> None:
    base = index.library_summary_key("/site/pkg/mod.py", "pkg.mod", "x = 1\n")
    others = {index.library_summary_key("/site/pkg/other.py", "pkg.mod", "x = 1\n"),
              index.library_summary_key("/site/pkg/mod.py", "pkg.other", "x = 1\n"),
              index.library_summary_key("/site/pkg/mod.py", "pkg.mod", "x = 2\n")}
    monkeypatch.setattr(index, "code_key", lambda: "another analyzer")
    others.add(index.library_summary_key("/site/pkg/mod.py", "pkg.mod", "x = 1\n"))
    assert base not in others and len(others) == 4
