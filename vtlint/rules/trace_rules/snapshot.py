"""The trace_rules snapshot: what `torch/_dynamo/trace_rules.py` and the graph-break
registry of the installed torch say, as JSON.

Built once per torch version by `vtlint.rules.trace_rules.build` in an isolated
subprocess (it imports torch), cached in the user cache folder, and loaded here in
milliseconds without importing torch. The cache folder may be shared or inside a
repository: a cached snapshot is read bounded (a regular file, its size, its nesting)
and checked against schema.json; anything else there is dropped and rebuilt. Without
torch, or when the build fails, the shipped snapshot nearest the installed torch is
used and a Notification says so; a section the installed torch could not give is
taken from it too."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

import platformdirs

from vtlint.bounded import MiB, loads, read_bytes, read_text
from vtlint.findings import Level, Notification

SCHEMA = 3  # bump when the snapshot format or the measurements change
# the reason a numpy callable is measured with when torch._numpy has no counterpart (NumpyVariable refuses it)
NOT_IN_TORCH_NUMPY = "numpy function torch._numpy does not have"
SECTIONS = ("torch_functions", "modules", "callables", "tensor_methods", "probed_calls", "registry")
SHIPPED_DIR = Path(__file__).parent / "snapshots"
PACKAGE_DIR = Path(__file__).resolve().parents[2]  # the running vtlint package, which the build imports
BUILD_TIMEOUT_S = 300.0
MAX_SNAPSHOT_BYTES = 64 * MiB  # a snapshot is about 500 KB
MAX_FAILURE_BYTES = 64 * 1024  # the `.failed` marker: a builder id and one line
# The build runs as `python -I -c BOOTSTRAP`: no current folder, script folder, PYTHON*
# variable or user site on sys.path, so nothing in the scanned tree is imported. It loads
# this very vtlint package by its path, whether or not site-packages holds it.
BOOTSTRAP = """\
import importlib.util, os, sys
package, target = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location(
    "vtlint", os.path.join(package, "__init__.py"), submodule_search_locations=[package])
sys.modules["vtlint"] = module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
from vtlint.rules.trace_rules.build import main
sys.exit(main([sys.argv[0], target]))
"""
# What the build keeps from the environment: where programs and (CUDA) libraries are, a
# home and temp folder, the locale. TORCH*/TORCHDYNAMO_* knobs stay out: the snapshot
# describes torch's defaults, not this shell's.
BUILD_ENV = ("PATH", "HOME", "USERPROFILE", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP", "LANG", "LC_ALL", "LC_CTYPE",
             "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH")


@dataclass(frozen=True)
class Snapshot:
    data: dict[str, Any]
    origin: str  # "cache" | "built" | "shipped"
    path: Path
    notifications: tuple[Notification, ...] = field(default=())

    @property
    def torch_version(self) -> str:
        return str(self.data["torch_version"])


def installed_torch_version() -> str | None:
    """From the package metadata: importing torch takes seconds."""
    try:
        return metadata.version("torch")
    except metadata.PackageNotFoundError:
        return None


def cache_path(torch_version: str) -> Path:
    root = Path(os.environ.get("VTLINT_CACHE_DIR") or platformdirs.user_cache_dir("vtlint"))
    return root / "trace_rules" / f"torch-{torch_version}.json"


def shipped_snapshots() -> list[Path]:
    return sorted(SHIPPED_DIR.glob("torch-*.json"), key=lambda p: _version_key(p.stem.removeprefix("torch-")))


def _version_key(version: str) -> tuple[int, ...]:
    parts = []
    for piece in version.split("+")[0].split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)


def _read(path: Path) -> dict[str, Any] | None:
    """A shipped snapshot: part of vtlint (its tests check it against the schema)."""
    try:
        data = loads(read_bytes(path, MAX_SNAPSHOT_BYTES))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("schema") == SCHEMA else None


@cache
def _validator() -> Any:
    from jsonschema import validators

    schema = json.loads((Path(__file__).parent / "schema.json").read_text(encoding="utf-8"))
    return validators.validator_for(schema)(schema)


def damage(data: Any) -> str | None:
    """How `data` breaks the snapshot schema (the first way), or None."""
    error = next(iter(_validator().iter_errors(data)), None)
    if error is None:
        return None
    return f"/{'/'.join(map(str, error.absolute_path))}: {error.message[:200]}"


def _read_cached(path: Path, version: str) -> tuple[dict[str, Any] | None, str]:
    """A snapshot of torch `version` from the cache folder, the sections its torch lost
    filled in, and "" -- or None and why it is unusable. One of another schema (another
    vtlint's) is left as it is; an unusable one (not a regular file, too large, too deep,
    not JSON, of the wrong types) is dropped, so that it is rebuilt."""
    try:
        data = loads(read_bytes(path, MAX_SNAPSHOT_BYTES))
    except FileNotFoundError:
        return None, ""
    except OSError as exc:
        problem: str | None = exc.strerror or str(exc)
    except ValueError as exc:  # not UTF-8, not JSON, nested too deep
        problem = f"not JSON: {exc}"
    else:
        if isinstance(data, dict) and data.get("schema") != SCHEMA:
            return None, ""
        data = _filled(data, version) if isinstance(data, dict) else data
        problem = damage(data)
        if problem is None:
            return data, ""
    _drop(path)
    return None, f"the cached snapshot {path.name} was unusable ({problem})"


def _lost(data: dict[str, Any]) -> list[str]:
    """The sections the snapshot's torch could not give (its `lost`)."""
    lost = data.get("lost")
    return [key for key in SECTIONS if isinstance(lost, dict) and key in lost]


def _filled(data: dict[str, Any], version: str) -> dict[str, Any]:
    """`data` with each lost section taken from the shipped snapshot nearest torch `version`."""
    sections = _lost(data)
    if not sections:
        return data
    donor = _read(_nearest_shipped(version)) or {}
    return data | {key: donor.get(key, data.get(key)) for key in sections}


def _drop(path: Path) -> None:
    try:
        path.unlink()  # a symlink itself, never its target
    except OSError:
        pass


def build_command(target: Path) -> list[str]:
    return [sys.executable, "-I", "-c", BOOTSTRAP, str(PACKAGE_DIR), str(target)]


def build_env() -> dict[str, str]:
    return {name: os.environ[name] for name in BUILD_ENV if name in os.environ}


def build(torch_version: str, timeout: float = BUILD_TIMEOUT_S) -> tuple[Path | None, str]:
    """Run the build with this interpreter, isolated from the current folder and
    environment; (cache file, "") or (None, why)."""
    target = Path(os.path.abspath(cache_path(torch_version)))
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        if not stat.S_ISREG(os.stat(target).st_mode):
            _drop(target)  # the build writes through a device or FIFO there: replace it instead
    except OSError:
        pass
    try:
        with tempfile.TemporaryDirectory(prefix="vtlint-snapshot-") as neutral:
            proc = subprocess.run(
                build_command(target), cwd=neutral, env=build_env(),
                capture_output=True, text=True, timeout=timeout, check=False,
            )
    except subprocess.TimeoutExpired:
        return None, f"building the trace_rules snapshot timed out after {timeout:.0f} s"
    except OSError as exc:
        return None, f"cannot run the trace_rules snapshot build: {exc.strerror}"
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return None, f"building the trace_rules snapshot failed: {last}"
    return target, ""


def _shipped(notes: list[Notification], near: str | None = None) -> Snapshot:
    """The shipped snapshot nearest torch `near` (the newest without one)."""
    path = _nearest_shipped(near)
    data = _read(path)
    if data is None:
        raise RuntimeError(f"the shipped trace_rules snapshot {path.name} is unreadable")
    return Snapshot(data, "shipped", path, tuple(notes))


def _nearest_shipped(version: str | None) -> Path:
    candidates = shipped_snapshots()
    if not candidates:
        raise RuntimeError("vtlint is installed without its shipped trace_rules snapshot")
    if version is None:
        return candidates[-1]
    wanted = _version_key(version)[:2]

    def distance(path: Path) -> tuple[int, int]:
        major, minor = _version_key(path.stem.removeprefix("torch-"))[:2]
        return abs(major - wanted[0]) * 1000 + abs(minor - wanted[1]), -minor  # a tie goes to the newer

    return min(candidates, key=distance)


def _shipped_label(path: Path) -> str:
    return path.stem.removeprefix("torch-")


def _own(data: dict[str, Any], origin: str, path: Path, version: str) -> Snapshot:
    """A snapshot of the installed torch; a section it lost (its torch lacks what that
    section reads) came from the nearest shipped snapshot (`_filled`), and a Notification says so."""
    lost_sections = _lost(data)
    if not lost_sections:
        return Snapshot(data, origin, path)
    donor = _nearest_shipped(version)
    note = Notification(
        "config",
        f"the trace_rules snapshot of torch {version} lacks {', '.join(lost_sections)} "
        f"({'; '.join(data['lost'][key] for key in lost_sections)}); those follow the snapshot shipped with "
        f"vtlint (torch {_shipped_label(donor)}), the rest is torch {version}'s own.",
        Level.WARNING,
    )
    return Snapshot(data, origin, path, (note,))


def load(*, allow_build: bool = True) -> Snapshot:
    """The snapshot for the installed torch: cached, else built (once per torch
    version, in a subprocess), else the nearest shipped one with a Notification."""
    version = installed_torch_version()
    if version is None:
        newest = _nearest_shipped(None)
        return _shipped([Notification(
            "config",
            "torch is not installed: graph-break predictions follow the trace_rules snapshot shipped "
            f"with vtlint (torch {_shipped_label(newest)}); install torch to follow your own.",
            Level.WARNING,
        )])
    cached = cache_path(version)
    data, unusable = _read_cached(cached, version)
    if data is not None and data.get("torch_version") == version:
        return _own(data, "cache", cached, version)
    shipped = _shipped_for(version)
    if shipped is not None:  # built from this very torch release: nothing to build
        return shipped
    why = f"{unusable or 'not built yet'}; run `vtlint rules --refresh`"
    failed = _failure_path(version)
    remembered = _remembered_failure(failed)
    if remembered:  # a build that failed once is not retried on every run; --refresh retries it
        why = remembered + "; `vtlint rules --refresh` retries"
    elif allow_build:
        built, why = build(version)
        data, unusable = _read_cached(built, version) if built else (None, "")
        if data is not None:
            return _own(data, "built", built, version)  # type: ignore[arg-type]
        why = why or unusable
        _remember_failure(failed, why)
    return _shipped([Notification(
        "config",
        f"trace_rules snapshot for torch {version} unavailable ({why}); graph-break predictions follow "
        f"the snapshot shipped with vtlint (torch {_shipped_label(_nearest_shipped(version))}).",
        Level.WARNING,
    )], near=version)


def _release(version: str) -> str:
    """`2.13.0+cpu` -> `2.13.0`: local builds of one release share its trace_rules."""
    return version.split("+")[0]


def _shipped_for(version: str) -> Snapshot | None:
    path = SHIPPED_DIR / f"torch-{_release(version)}.json"
    data = _read(path) if path.is_file() else None
    if data is None or _release(str(data.get("torch_version"))) != _release(version):
        return None
    return Snapshot(data, "shipped", path)


def _failure_path(torch_version: str) -> Path:
    return cache_path(torch_version).with_suffix(".failed")


def _builder_id() -> str:
    """The build code a failure was met with: a vtlint with another builder (one that may
    handle this torch, as 2.11's missing get_skip_reason) tries again."""
    return hashlib.sha256(Path(__file__).with_name("build.py").read_bytes()).hexdigest()[:16]


def _remembered_failure(path: Path) -> str:
    """Why the build failed for this torch with this builder; "" when it did not."""
    try:
        builder, _, why = read_text(path, MAX_FAILURE_BYTES).strip().partition(" ")
    except (OSError, UnicodeDecodeError):
        return ""
    return why if builder == _builder_id() else ""


def _remember_failure(path: Path, why: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{_builder_id()} {why}\n", encoding="utf-8")
    except OSError:  # a read-only cache: the next run simply tries again
        pass


def fingerprint() -> str:
    """Which snapshot `load` would follow, from a few stats (no JSON read, no build): part
    of the walk cache's key, so that a walk made with one snapshot is never replayed with another."""
    version = installed_torch_version()
    paths = [*shipped_snapshots(), *((cache_path(version), _failure_path(version)) if version else ())]
    stamps = [version or "no torch", os.environ.get("VTLINT_NO_SNAPSHOT_BUILD", "")]
    for path in paths:
        try:
            info = os.stat(path)
            stamps.append(f"{path.name}:{info.st_size}:{info.st_mtime_ns}")
        except OSError:
            stamps.append(f"{path.name}:-")
    return "\0".join(stamps)


@cache
def current() -> Snapshot:
    """The snapshot of this process (loaded once)."""
    return load(allow_build=os.environ.get("VTLINT_NO_SNAPSHOT_BUILD") != "1")


def refresh() -> Snapshot:
    """Rebuild the snapshot for the installed torch (`vtlint rules --refresh`)."""
    version = installed_torch_version()
    if version is None:
        raise RuntimeError("torch is not installed: nothing to build the trace_rules snapshot from")
    _failure_path(version).unlink(missing_ok=True)
    built, why = build(version)
    if built is None:
        _remember_failure(_failure_path(version), why)
        raise RuntimeError(why)
    current.cache_clear()
    return current()
