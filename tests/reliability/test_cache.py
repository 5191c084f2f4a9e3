"""The analysis cache trusts nothing it finds at an entry path (issue 16, items 1
and 7): a forged pickle is never unpickled, an entry moved to another key or kind
is refused, a FIFO or a device there neither hangs nor eats memory, and the HMAC
key lives outside the cache folder, private to the user."""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import time
from pathlib import Path

import pytest

from vtlint.analyzer.cache import Cache, key_file, load_key
from vtlint.check import run_check
from vtlint.config import Config

GOOD = "import torch\n\n\n@torch.compile\ndef f(x):\n    print(x)\n    return x\n\n\nf(torch.ones(2))\n"


class _Marker:
    """Unpickling this writes a file: what an attacker's pickle would do."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (Path.write_text, (self.path, "ran"))


@pytest.fixture
def cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A project analyzed once with the cache on: (project root, cache folder)."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(cache))
    monkeypatch.setenv("VTLINT_STATE_DIR", str(tmp_path / "state"))
    root = tmp_path / "project"
    root.mkdir()
    (root / "good.py").write_text(GOOD)
    _run(root)
    return root, cache


def _run(root: Path) -> list[tuple[str, int]]:
    result = run_check([root], Config(root=root), use_cache=True)
    return [(f.code, f.location.line) for f in result.findings]


def _entries(cache: Path) -> list[Path]:
    entries = [p for p in cache.rglob("*") if p.is_file() and not p.name.startswith(".")]
    assert entries, "the first run cached nothing"
    return entries


def test_a_forged_pickle_with_a_valid_checksum_is_never_unpickled(cached: tuple[Path, Path], tmp_path: Path) -> None:
    """`cache_pickle_rce`: the old format's sha256 checksum was no protection."""
    root, cache = cached
    expected = _run(root)
    marker = tmp_path / "MARKER"
    payload = pickle.dumps(_Marker(marker))
    for path in _entries(cache):
        for magic in (b"VTLC1", b"VTLC2"):
            path.write_bytes(magic + hashlib.sha256(payload).digest() + payload)
            assert _run(root) == expected
            assert not marker.exists()


def test_an_authentic_entry_moved_to_another_key_or_kind_is_refused(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A valid entry of the wrong type used to be an internal error with no report."""
    monkeypatch.setenv("VTLINT_STATE_DIR", str(tmp_path / "state"))
    cache = Cache(folder=tmp_path / "cache")
    cache.put("summary", "ab" * 32, ("a", "summary"))
    assert cache.get("summary", "ab" * 32) == ("a", "summary")
    source = cache._path("summary", "ab" * 32)
    for kind, key in (("walk", "ab" * 32), ("summary", "cd" * 32)):
        target = cache._path(kind, key)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(source.read_bytes())
        assert cache.get(kind, key) is None
        assert not target.exists()  # dropped, rebuilt next time


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "folder", "huge"])
def test_a_non_regular_or_huge_entry_neither_hangs_nor_eats_memory(cached: tuple[Path, Path], kind: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    root, cache = cached
    expected = _run(root)
    if kind == "huge":
        monkeypatch.setattr("vtlint.analyzer.cache.MAX_ENTRY_BYTES", 16)
    for path in _entries(cache):
        if kind != "huge":
            path.unlink()
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "dev_zero":
            path.symlink_to("/dev/zero")
        elif kind == "folder":
            path.mkdir()
    started = time.monotonic()
    assert _run(root) == expected
    assert time.monotonic() - started < 60


def test_the_key_is_private_and_outside_the_cache(cached: tuple[Path, Path], tmp_path: Path) -> None:
    _, cache = cached
    key = key_file()
    assert key.is_file() and cache not in key.parents
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert load_key() == key.read_bytes() and len(key.read_bytes()) == 32


def test_a_key_others_can_write_turns_the_cache_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VTLINT_STATE_DIR", str(tmp_path / "state"))
    assert load_key() is not None
    os.chmod(key_file(), 0o666)
    cache = Cache(folder=tmp_path / "cache")
    assert not cache.enabled
    cache.put("walk", "ab" * 32, 1)
    assert not (tmp_path / "cache").exists()
