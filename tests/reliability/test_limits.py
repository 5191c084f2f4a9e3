"""Time budgets: a file whose parse and entry scan run past `file-budget`, and an entry
whose walk runs past its budget, each yield a "too complex" notification for it, and
the rest of the run goes on. (Peak memory and time on huge inputs are measured by
benchmarks/limits/run.py, not asserted here.)"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from vtlint.analyzer import project as analyzer_project
from vtlint.analyzer.api import FILE_SKIPPED
from vtlint.check import run_check
from vtlint.config import Config


def _pathological_entry(branches: int) -> str:
    """Each `if` on a tensor-free condition doubles the paths a naive walk explores."""
    body = "".join(f"    if n > {i}:\n        x = x + {i}\n    else:\n        x = x - {i}\n" for i in range(branches))
    return f"import torch\n\n\n@torch.compile\ndef slow(x, n):\n{body}    print(n)\n    return x\n\n\nslow(torch.ones(2), 3)\n"


GOOD = "import torch\n\n\n@torch.compile\ndef fine(x):\n    print(x)\n    return x\n\n\nfine(torch.ones(2))\n"


def test_an_entry_past_its_budget_is_a_too_complex_notification(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analyzer_project, "ENTRY_BUDGET_S", 0.0)  # every walk is over budget at its first check
    (tmp_path / "slow.py").write_text(_pathological_entry(200))
    (tmp_path / "good.py").write_text(GOOD)
    started = time.monotonic()
    result = run_check([tmp_path], Config(root=tmp_path), use_cache=False)
    assert time.monotonic() - started < 60
    limits = [n for n in result.notifications if n.kind == "limit" and "too complex" in n.message]
    assert any(n.location and n.location.path == "slow.py" for n in limits), result.notifications
    assert {e.entry for e in result.entries} == {"slow.py:slow", "good.py:fine"}


def test_a_long_entry_finishes_within_the_default_budget(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text(_pathological_entry(200))
    started = time.monotonic()
    result = run_check([tmp_path], Config(root=tmp_path), use_cache=False)
    assert time.monotonic() - started < analyzer_project.ENTRY_BUDGET_S + 30
    assert [e.entry for e in result.entries] == ["slow.py:slow"]


def _big_data_module(items: int) -> str:
    """Seconds of parsing and no entry: with `--jobs 2` a worker process analyzes it."""
    return "DATA = [" + ", ".join(str(i) for i in range(items)) + "]\n\n\ndef first():\n    return DATA[0]\n"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_past_its_budget_is_given_up_with_a_notification(tmp_path: Path, jobs: int,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "project"
    root.mkdir()
    (root / "big.py").write_text(_big_data_module(60_000))  # ~2 s here; each good file ~15 ms
    for i in range(9):  # enough files for --jobs 2 to use worker processes
        (root / f"good_{i}.py").write_text(GOOD)
    config = Config(root=root, file_budget=0.3)
    for _ in range(2):  # the second run must not read a cut-short result from the cache
        result = run_check([root], config, jobs=jobs)
        given_up = [n for n in result.notifications if n.kind == FILE_SKIPPED and "within 0.3 s" in n.message]
        assert [(n.location.path, n.location.line) for n in given_up if n.location] == [("big.py", 1)]
        assert {e.entry.partition(":")[0] for e in result.entries} == {f"good_{i}.py" for i in range(9)}
        assert {f.location.path for f in result.findings} == {f"good_{i}.py" for i in range(9)}
    result = run_check([root], Config(root=root), jobs=jobs)  # the default budget: big.py is analyzed
    assert not [n for n in result.notifications if "too complex" in n.message]
    assert len(result.findings) == 9


def test_the_budget_leaves_an_outer_timer_running() -> None:
    from vtlint.analyzer.budget import OverBudget, time_limit

    signal.setitimer(signal.ITIMER_REAL, 100)
    try:
        with time_limit(5):
            pass
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 90 < remaining <= 100
        with pytest.raises(OverBudget), time_limit(0.01):
            while True:
                pass
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def test_an_interruption_swallowed_or_turned_into_another_error_is_still_over_budget() -> None:
    from vtlint.analyzer.budget import OverBudget, time_limit

    with pytest.raises(OverBudget), time_limit(0.01):
        try:
            while True:
                pass
        except BaseException:  # code on the way that catches too much
            pass
    with pytest.raises(OverBudget), time_limit(0.01):
        try:
            while True:
                pass
        except BaseException as exc:  # C code reports the interruption as its own error
            raise SystemError("AST constructor recursion depth mismatch") from exc


def test_a_file_with_too_many_tokens_is_not_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analyzer_project, "MAX_TOKENS", 2_000)  # the real bound holds ~400 MB of tree
    (tmp_path / "generated.py").write_text("import torch\n\n" + "".join(f"w_{i} = {i}\n" for i in range(1_000))
                                           + GOOD.replace("import torch\n", ""))
    (tmp_path / "good.py").write_text(GOOD)
    result = run_check([tmp_path], Config(root=tmp_path), use_cache=False)
    too_large = [n for n in result.notifications if "more than 2,000 tokens" in n.message]
    assert [(n.location.path, n.level.value) for n in too_large if n.location] == [("generated.py", "warning")]
    assert [e.entry for e in result.entries] == ["good.py:fine"]
    assert result.files == ["generated.py", "good.py"]


def test_off_the_main_thread_the_budget_is_checked_as_the_analysis_goes() -> None:
    """The language server analyzes in a worker thread, where no timer signal reaches:
    the chunked parse and the entry scan check the deadline at every statement."""
    from concurrent.futures import ThreadPoolExecutor

    from vtlint.analyzer.chunks import ChunkCache

    big = "import torch\n\n\n" + "".join(
        f"@torch.compile\ndef entry_{i}(x, n):\n    print(n)\n    return x * n + {i}\n\n\n" for i in range(2_000))
    with ThreadPoolExecutor(1) as pool:
        started = time.monotonic()
        (summary, _, _, note), _ = pool.submit(analyzer_project._summarize_one, "big.py", big, ChunkCache(),
                                               0.2).result()
        took = time.monotonic() - started
        assert summary is None and note is not None and "within 0.2 s" in note.message
        assert took < 2.0, took  # stopped near its budget, not after the whole file (several seconds)
        (summary, _, facts, note), _ = pool.submit(analyzer_project._summarize_one, "good.py", GOOD, ChunkCache(),
                                                   0.2).result()
        assert note is None and facts is not None and len(facts.entries) == 1


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
def test_an_interruption_in_a_finalizer_is_over_budget_without_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    """A finalizer cannot raise: Python would print "Exception ignored"; the block
    still ends over budget, silently."""
    import gc

    from vtlint.analyzer.budget import OverBudget, time_limit

    def busy(phase: str, info: dict[str, int]) -> None:
        deadline = time.monotonic() + 0.05
        while time.monotonic() < deadline:
            pass

    gc.callbacks.append(busy)
    try:
        with pytest.raises(OverBudget), time_limit(0.01):
            gc.collect()
    finally:
        gc.callbacks.remove(busy)
    assert "Exception ignored" not in capsys.readouterr().err
