"""An on-disk cache for module summaries (the project's and installed packages') and walk results.

Keyed by vtlint's and Python's versions and a hash of every input the entry
depends on (`vtlint.analyzer.project` builds the keys); entries are written atomically
(temp file + rename). Entries are pickles, and unpickling runs code, while the
cache folder may be shared or live inside a repository: each entry carries an
HMAC-SHA256 over its kind, key and payload, with a key kept outside the cache
folder (in the user's state folder, readable by the user only). An entry that
vtlint did not write for that kind and key -- forged, truncated, moved, a FIFO, a
device, too large -- is dropped and rebuilt without being unpickled."""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import pickle
import secrets
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

import platformdirs

from vtlint import __version__
from vtlint.bounded import MiB, read_bytes

_MAGIC = b"VTLC8"  # 8: a module summary says whether importing it has effects
_MAC_SIZE = 32
KEY_SIZE = 32
MAX_ENTRY_BYTES = 512 * MiB  # a walk of a very large project is tens of MB


def digest(*parts: str | bytes) -> str:
    """A cache key: vtlint's version, the interpreter's (Python's own parse decides which
    files are syntax errors), then `parts`."""
    h = hashlib.sha256(f"{__version__}\0{sys.version}".encode())
    for part in parts:
        h.update(b"\0")
        h.update(part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part)
    return h.hexdigest()


@functools.cache
def code_key() -> str:
    """The analyzer's own code (its variables/ too): a summary or walk that other code made is never read."""
    return digest(*[p.read_bytes() for p in sorted(Path(__file__).parent.rglob("*.py"))])


def key_file() -> Path:
    """Where the cache's HMAC key lives: never inside a cache folder."""
    base = os.environ.get("VTLINT_STATE_DIR") or platformdirs.user_state_dir("vtlint")
    return Path(base) / "cache.key"


def _read_key(path: Path) -> bytes | None:
    """The key, if the file is a regular file only this user can read or write."""
    try:
        info = os.lstat(path)
        private = os.name != "posix" or (not info.st_mode & 0o077 and info.st_uid == os.getuid())
        if not stat.S_ISREG(info.st_mode) or not private:
            return None
        key = read_bytes(path, KEY_SIZE)
    except OSError:
        return None
    return key if len(key) == KEY_SIZE else None


def load_key(path: Path | None = None) -> bytes | None:
    """The user's cache key, created (0600, atomically) on first use; None when it
    cannot be read or made safely (then nothing is cached)."""
    path = path or key_file()
    key = _read_key(path)
    if key is not None:
        return key
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".key-")  # mkstemp: mode 0600
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(secrets.token_bytes(KEY_SIZE))
            os.link(tmp, path)  # never replaces: two processes racing agree on the first key
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    except OSError:
        return None
    return _read_key(path)


class Cache:
    def __init__(self, enabled: bool = True, folder: Path | None = None) -> None:
        base = folder or Path(os.environ.get("VTLINT_CACHE_DIR") or platformdirs.user_cache_dir("vtlint"))
        self.folder = base / f"v{__version__}"
        self.key = load_key() if enabled else None
        self.enabled = self.key is not None
        self.hits = 0
        self.misses = 0

    def _path(self, kind: str, key: str) -> Path:
        return self.folder / kind / key[:2] / key

    def _mac(self, kind: str, key: str, payload: bytes) -> bytes:
        assert self.key is not None
        return hmac.new(self.key, b"\0".join([kind.encode(), key.encode(), payload]), hashlib.sha256).digest()

    def get(self, kind: str, key: str) -> Any | None:
        if not self.enabled:
            return None
        path = self._path(kind, key)
        try:
            data = read_bytes(path, MAX_ENTRY_BYTES)
        except FileNotFoundError:
            self.misses += 1
            return None
        except OSError:  # a FIFO, a device, a folder, too large: never ours
            self._drop(path)
            self.misses += 1
            return None
        head = len(_MAGIC) + _MAC_SIZE
        payload = data[head:]
        if not data.startswith(_MAGIC) or not hmac.compare_digest(data[len(_MAGIC):head],
                                                                  self._mac(kind, key, payload)):
            self._drop(path)
            self.misses += 1
            return None
        try:
            value = pickle.loads(payload)
        except Exception:  # noqa: BLE001 - our own entry from a build whose classes changed: rebuilt
            self._drop(path)
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, kind: str, key: str, value: Any) -> None:
        if not self.enabled:
            return
        path = self._path(kind, key)
        try:
            payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as handle:
                handle.write(_MAGIC + self._mac(kind, key, payload) + payload)
            os.replace(tmp, path)
        except (OSError, pickle.PicklingError, RecursionError, TypeError, AttributeError):
            return  # a cache that cannot be written only costs time

    @staticmethod
    def _drop(path: Path) -> None:
        try:
            path.unlink()
        except OSError:
            pass
