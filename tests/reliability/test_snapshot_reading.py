"""The trace_rules snapshot in the cache folder (which may be shared or inside a
repository) is read bounded (issue 35, item 6): a FIFO there hung every run (also with
--no-cache), a /dev/zero symlink reached 15.7 GB in 10 s, 100,000 `[` were a
RecursionError. Each is now dropped and rebuilt (here: the build is stubbed, or the
shipped snapshot serves), with one line saying why when it cannot be rebuilt."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reliability.corpus import GOOD
from vtlint.rules.trace_rules import snapshot

VERSION = "2.14.0"  # a torch vtlint ships no snapshot for: the cached one is the one read


def _bad(path: Path, kind: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero":
        path.symlink_to("/dev/zero")
    elif kind == "deep":
        path.write_text("[" * 100_000)
    elif kind == "huge":
        with path.open("wb") as handle:
            handle.truncate(snapshot.MAX_SNAPSHOT_BYTES + 1)
    elif kind == "wrong_types":  # valid JSON of the right schema number, with a section of the wrong type
        data = json.loads(snapshot.shipped_snapshots()[-1].read_text(encoding="utf-8"))
        path.write_text(json.dumps({**data, "torch_version": VERSION, "registry": {"GB0001": {"gb_type": 5}}}))


KINDS = ["fifo", "dev_zero", "deep", "huge", "wrong_types"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("VTLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(snapshot, "installed_torch_version", lambda: VERSION)
    return tmp_path / "cache"


@pytest.mark.parametrize("kind", KINDS)
def test_an_unusable_cached_snapshot_is_dropped_and_rebuilt(cache: Path, kind: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    target = snapshot.cache_path(VERSION)
    _bad(target, kind)
    shipped = json.loads(snapshot.shipped_snapshots()[-1].read_text(encoding="utf-8"))

    def build(version: str) -> tuple[Path, str]:  # what the real build leaves: a regular file at the target
        assert not os.path.lexists(target), "the build would have written into the bad file"
        target.write_text(json.dumps({**shipped, "torch_version": version}))
        return target, ""

    monkeypatch.setattr(snapshot, "build", build)
    started = time.monotonic()
    snap = snapshot.load()
    assert time.monotonic() - started < 10
    assert (snap.origin, snap.torch_version, snap.notifications) == ("built", VERSION, ())


@pytest.mark.parametrize("kind", KINDS)
def test_without_a_build_one_line_says_why(cache: Path, kind: str) -> None:
    target = snapshot.cache_path(VERSION)
    _bad(target, kind)
    snap = snapshot.load(allow_build=False)
    assert snap.origin == "shipped" and not os.path.lexists(target)
    [note] = snap.notifications
    assert f"the cached snapshot {target.name} was unusable" in note.message, note.message
    assert "\n" not in note.message


def test_the_shipped_snapshots_hold_to_the_schema() -> None:
    """What the cached ones are checked against describes what vtlint itself builds and ships."""
    for path in snapshot.shipped_snapshots():
        assert snapshot.damage(json.loads(path.read_text(encoding="utf-8"))) is None, path.name


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "deep"])
def test_a_real_run_neither_hangs_nor_grows(tmp_path: Path, kind: str) -> None:
    """The reproduction, through `python -m vtlint check --no-cache` with the snapshot of the installed
    torch replaced in the cache folder: the run ends in seconds, under 500 MB, with its finding."""
    from vtlint.rules.trace_rules.snapshot import installed_torch_version

    version = installed_torch_version()
    if version is None:
        pytest.skip("the snapshot of the installed torch is the one a run reads")
    cache = tmp_path / "cache"
    _bad(cache / "trace_rules" / f"torch-{version}.json", kind)
    (tmp_path / "good.py").write_bytes(GOOD)
    env = {**os.environ, "VTLINT_CACHE_DIR": str(cache), "VTLINT_NO_SNAPSHOT_BUILD": "1"}
    code = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.stderr.write(p.stdout + p.stderr); "
            "sys.exit(p.returncode)")
    proc = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "vtlint", "check", ".", "--no-cache"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "VTL202" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert int(proc.stdout) < 500 * 1024, f"{int(proc.stdout) // 1024} MB"  # ru_maxrss is in KB on Linux
