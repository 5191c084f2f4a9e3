"""An on-disk cache for module summaries and walk results.

Keyed by vtlint's version and a content hash; entries are written atomically
(temp file + rename) and carry a checksum, so a truncated or corrupt entry is
detected, dropped and rebuilt instead of crashing a run."""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

import platformdirs

from vtlint import __version__

_MAGIC = b"VTLC1"


def digest(*parts: str | bytes) -> str:
    h = hashlib.sha256(__version__.encode())
    for part in parts:
        h.update(b"\0")
        h.update(part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part)
    return h.hexdigest()


class Cache:
    def __init__(self, enabled: bool = True, folder: Path | None = None) -> None:
        self.enabled = enabled
        base = folder or Path(os.environ.get("VTLINT_CACHE_DIR") or platformdirs.user_cache_dir("vtlint"))
        self.folder = base / f"v{__version__}"
        self.hits = 0
        self.misses = 0

    def _path(self, kind: str, key: str) -> Path:
        return self.folder / kind / key[:2] / key

    def get(self, kind: str, key: str) -> Any | None:
        if not self.enabled:
            return None
        path = self._path(kind, key)
        try:
            data = path.read_bytes()
        except OSError:
            self.misses += 1
            return None
        payload = data[len(_MAGIC) + 32:]
        if not data.startswith(_MAGIC) or hashlib.sha256(payload).digest() != data[len(_MAGIC):len(_MAGIC) + 32]:
            self._drop(path)
            self.misses += 1
            return None
        try:
            value = pickle.loads(payload)
        except Exception:  # noqa: BLE001 - a stale or corrupt pickle is rebuilt, never fatal
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
                handle.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, path)
        except (OSError, pickle.PicklingError, RecursionError, TypeError, AttributeError):
            return  # a cache that cannot be written only costs time

    @staticmethod
    def _drop(path: Path) -> None:
        try:
            path.unlink()
        except OSError:
            pass
