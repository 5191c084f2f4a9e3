"""Writing reports (`--output`, `--write-baseline`, `vtlint trace --output`).

A regular file is replaced atomically (temp file + rename), so a reader never sees
half a report; a symlink is written through to its target and stays a link; a
device or FIFO (`/dev/stdout`, `/dev/null`, a pipe) is written to as a shell
redirect would, never replaced by a file. A new report's mode follows the umask,
an existing one keeps its mode. A file the run reads (a source, a baseline) is
never overwritten. Report text is UTF-8: a file name that is not (Python keeps its
bytes as lone surrogates) is shown with U+FFFD."""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

_SURROGATE = re.compile("[\ud800-\udfff]")
_WRITE_THROUGH = ("/dev/", "/proc/")  # /dev/stdout and /proc/self/fd/N name whatever the fd is


def printable(text: str) -> str:
    """`text` with the lone surrogates of undecodable file names replaced: encodable as UTF-8."""
    return _SURROGATE.sub("\ufffd", text)


def write_atomic(path: Path, text: str, inputs: Iterable[Path] = ()) -> None:
    """Write `text` to `path` (see the module docstring); OSError when it cannot be
    written, also when `path` is one of `inputs`. On a failure an existing report is
    left untouched and no temporary file remains."""
    refuse_inputs(path, inputs)
    data = printable(text).encode("utf-8")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    if (info is not None and not stat.S_ISREG(info.st_mode)) or os.path.abspath(path).startswith(_WRITE_THROUGH):
        with open(path, "wb") as handle:
            handle.write(data)
        return
    _replace(Path(os.path.realpath(path)), data, info)


def refuse_inputs(path: Path, inputs: Iterable[Path]) -> None:
    """OSError when `path` is one of `inputs` (by any name: a link, another spelling); a
    command that runs for long checks its destination before it starts, then again on writing."""
    try:
        target = os.stat(path)
    except OSError:
        return  # nothing there yet: it cannot be an input
    for source in inputs:
        try:
            same = os.path.samestat(target, os.stat(source))
        except OSError:
            continue
        if same and stat.S_ISREG(target.st_mode):
            raise OSError(errno.EEXIST, "it is an input of this run; choose another file", str(path))


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _replace(target: Path, data: bytes, info: os.stat_result | None) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), stat.S_IMODE(info.st_mode) if info else 0o666 & ~_umask())
            if info is not None:
                _keep_owner(handle.fileno(), info)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _keep_owner(fd: int, info: os.stat_result) -> None:
    """Root rewriting a user's report leaves it theirs; others cannot change owners."""
    if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, info.st_uid, info.st_gid)
        except PermissionError:
            pass

