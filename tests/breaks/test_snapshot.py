"""The trace_rules snapshot: cached per torch version, shipped fallback, fast load."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from vtlint.rules.trace_rules import snapshot


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(tmp_path))
    return tmp_path


def _shipped_data() -> dict:
    return json.loads(snapshot.shipped_snapshots()[-1].read_text(encoding="utf-8"))


def test_without_torch_the_newest_shipped_snapshot_is_used_and_said(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshot, "installed_torch_version", lambda: None)
    snap = snapshot.load()
    assert (snap.origin, snap.path) == ("shipped", snapshot.shipped_snapshots()[-1])
    [note] = snap.notifications
    assert "torch is not installed" in note.message and "torch 2.15.0" in note.message


@pytest.mark.parametrize("release", ["2.13.0", "2.15.0"])
def test_each_shipped_release_serves_its_own_torch(
    release: str, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshot, "installed_torch_version", lambda: f"{release}+cu130")
    monkeypatch.setattr(snapshot, "build", lambda version: pytest.fail("built a snapshot vtlint ships"))
    snap = snapshot.load()
    assert (snap.origin, snap.torch_version.split("+")[0], snap.notifications) == ("shipped", release, ())


@pytest.mark.parametrize(("installed", "nearest"), [
    ("2.6.0", "2.13.0"), ("2.11.0+cu130", "2.13.0"), ("2.14.1", "2.15.0"), ("2.16.0", "2.15.0"),
])
def test_a_failed_build_falls_back_to_the_nearest_shipped_release(
    installed: str, nearest: str, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshot, "installed_torch_version", lambda: installed)
    monkeypatch.setattr(snapshot, "build", lambda version: (None, "building the trace_rules snapshot failed: boom"))
    snap = snapshot.load()
    assert (snap.origin, snap.torch_version.split("+")[0]) == ("shipped", nearest)
    assert f"torch {installed} unavailable" in snap.notifications[0].message
    assert f"(torch {nearest})" in snap.notifications[0].message


def test_a_section_the_torch_lacks_comes_from_the_nearest_shipped_release(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build that lost one section (its torch lacks what the section reads) keeps
    every other section its own; the lost one is taken from a shipped snapshot."""
    shipped_213 = json.loads((snapshot.SHIPPED_DIR / "torch-2.13.0.json").read_text(encoding="utf-8"))
    own_functions = {"torch.sin": "TorchInGraphFunctionVariable"}
    data = shipped_213 | {
        "torch_version": "2.11.0", "modules": {}, "torch_functions": own_functions,
        "lost": {"modules": "AttributeError: no MOD_SKIPLIST", "callables.get_skip_reason": "absent"},
    }
    target = snapshot.cache_path("2.11.0")
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(snapshot, "installed_torch_version", lambda: "2.11.0")
    snap = snapshot.load(allow_build=False)
    assert (snap.origin, snap.torch_version) == ("cache", "2.11.0")
    assert snap.data["modules"] == shipped_213["modules"]
    assert snap.data["torch_functions"] == own_functions
    [note] = snap.notifications
    assert "torch 2.11.0 lacks modules (AttributeError: no MOD_SKIPLIST)" in note.message
    assert "torch 2.13.0" in note.message and "get_skip_reason" not in note.message


def test_a_snapshot_that_lost_nothing_says_nothing(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _shipped_data() | {"torch_version": "2.12.0", "lost": {"callables.get_skip_reason": "absent"}}
    target = snapshot.cache_path("2.12.0")
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(snapshot, "installed_torch_version", lambda: "2.12.0")
    assert snapshot.load(allow_build=False).notifications == ()


def test_cached_snapshot_is_read_for_its_torch_version(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _shipped_data() | {"torch_version": "9.9.9"}
    target = snapshot.cache_path("9.9.9")
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(snapshot, "installed_torch_version", lambda: "9.9.9")
    started = time.perf_counter()
    snap = snapshot.load(allow_build=False)
    elapsed = time.perf_counter() - started
    assert (snap.origin, snap.torch_version, snap.notifications) == ("cache", "9.9.9", ())
    assert elapsed < 0.5, f"loading the snapshot took {elapsed:.3f} s"


def test_the_shipped_snapshot_serves_its_own_torch_release_without_a_build(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = _shipped_data()["torch_version"].split("+")[0]
    monkeypatch.setattr(snapshot, "installed_torch_version", lambda: f"{release}+cu999")
    monkeypatch.setattr(snapshot, "build", lambda version: pytest.fail("built a snapshot torch already ships"))
    snap = snapshot.load()
    assert (snap.origin, snap.notifications) == ("shipped", ())


def test_stale_or_missing_cache_falls_back_with_a_notification(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = snapshot.cache_path("9.9.9")
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps({"schema": -1, "torch_version": "9.9.9"}), encoding="utf-8")
    monkeypatch.setattr(snapshot, "installed_torch_version", lambda: "9.9.9")
    snap = snapshot.load(allow_build=False)
    assert snap.origin == "shipped"
    assert "torch 9.9.9 unavailable" in snap.notifications[0].message
    assert "vtlint rules --refresh" in snap.notifications[0].message


def test_failed_build_falls_back_and_is_not_retried_each_run(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    attempts = []

    def failing(version: str) -> tuple[None, str]:
        attempts.append(version)
        return None, "building the trace_rules snapshot failed: boom"

    monkeypatch.setattr(snapshot, "installed_torch_version", lambda: "9.9.9")
    monkeypatch.setattr(snapshot, "build", failing)
    first, second = snapshot.load(), snapshot.load()
    assert first.origin == second.origin == "shipped"
    assert "boom" in first.notifications[0].message and "--refresh" in second.notifications[0].message
    assert attempts == ["9.9.9"]
    with pytest.raises(RuntimeError, match="boom"):
        snapshot.refresh()
    assert attempts == ["9.9.9", "9.9.9"]


@pytest.mark.parametrize("path", snapshot.shipped_snapshots(), ids=lambda p: p.stem)
def test_shipped_snapshot_is_portable_and_small(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert path.stat().st_size < 600_000
    assert not re.search(r'"/(?:home|root|usr|opt|tmp|Users)/', text), "absolute paths leaked into the snapshot"
    data = json.loads(text)
    assert data["schema"] == snapshot.SCHEMA
    assert set(snapshot.SECTIONS) <= set(data) and not data.get("lost")
    assert data["torch_version"].split("+")[0] == path.stem.removeprefix("torch-")


@pytest.mark.torch
def test_build_reads_the_installed_torch(cache: Path) -> None:
    """The build script against torch itself: its facts are trace_rules' own answers."""
    version = snapshot.installed_torch_version()
    assert version is not None
    built, why = snapshot.build(version)
    assert built is not None, why
    data = json.loads(built.read_text(encoding="utf-8"))
    assert data["torch_version"] == version
    assert data["torch_functions"]["torch.sin"] == "TorchInGraphFunctionVariable"
    assert "torch.nn" in data["modules"]["mod_inlinelist"] and "torch.nn" in data["modules"]["mod_skiplist"]
    assert "random" in data["modules"]["builtin_skiplist"] and "tqdm" in data["modules"]["thirdparty_skiplist"]
    assert data["modules"]["builtin_inline_when_called"] == ["copy"]
    assert data["callables"]["time"]["default"][0] == "SkipFunctionVariable"
    assert data["callables"]["warnings"]["names"]["warn"][0] == "SkipFunctionVariable"
    assert data["registry"]["GB0170"]["gb_type"] == "Data-dependent branching"
    assert "item" in data["tensor_methods"]
    probed = data["probed_calls"]
    assert probed["time.time"] == "GB0007" and probed["logging.Logger.info"] == "GB0291"
    assert probed["json.dumps"] == "GB0156"  # inlined, then breaks inside the json encoder
    assert probed["copy.deepcopy"] is None and probed["inspect.signature"] is None


def test_refresh_names_what_the_torch_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from vtlint.cli import main

    data = _shipped_data() | {"torch_version": "2.11.0", "lost": {"callables.get_skip_reason": "skip reasons ..."}}
    monkeypatch.setattr(snapshot, "refresh", lambda: snapshot.Snapshot(data, "built", Path("torch-2.11.0.json")))
    result = CliRunner().invoke(main, ["rules", "--refresh", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert "trace_rules snapshot for torch 2.11.0" in result.stderr
    assert "  lost callables.get_skip_reason: skip reasons ..." in result.stderr


def test_a_failure_met_by_another_builder_is_retried(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A torch 2.11 build that an older vtlint failed (AttributeError: get_skip_reason) is
    tried again by a vtlint whose builder changed, without `vtlint rules --refresh`."""
    attempts: list[str] = []

    def failing(version: str) -> tuple[None, str]:
        attempts.append(version)
        return None, "building the trace_rules snapshot failed: boom"

    marker = snapshot._failure_path("2.11.0")
    marker.parent.mkdir(parents=True)
    marker.write_text("0123456789abcdef building the trace_rules snapshot failed: AttributeError\n", encoding="utf-8")
    monkeypatch.setattr(snapshot, "installed_torch_version", lambda: "2.11.0")
    monkeypatch.setattr(snapshot, "build", failing)
    assert "boom" in snapshot.load().notifications[0].message
    assert "boom" in snapshot.load().notifications[0].message and attempts == ["2.11.0"]
