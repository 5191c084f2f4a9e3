"""Wall-clock limits: on the analysis of one file (parse, positions, entry scan;
`file-budget` in the configuration) and on the walk of one compiled entry.

The walk of each entry counts its own steps against a deadline; the per-file
phases run mostly inside LibCST, where no check of ours can be placed, so the
limit is a timer signal that interrupts them. Signals reach only a process's
main thread, which is where the CLI and its `--jobs` workers analyze files; the
language server analyzes in a worker thread and bounds files by size instead."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

ENTRY_BUDGET_S = 10.0  # per compiled entry: its walk (counted by the walker itself)


class OverBudget(BaseException):
    """The file's analysis ran past its budget. A BaseException, so that no
    `except Exception` on the way swallows it and lets the file run on unbounded."""


class _Timer:
    expired = False

    def expire(self, signum: int, frame: FrameType | None) -> None:
        self.expired = True
        raise OverBudget


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise OverBudget in the block once `seconds` have passed (the main thread
    of a process on a platform with `setitimer`; elsewhere the block runs unbounded).
    A native call (LibCST's parser) is interrupted when it returns; an error the
    interruption causes in C code (`compile` reports a SystemError) is OverBudget too."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return
    timer = _Timer()
    previous = signal.signal(signal.SIGALRM, timer.expire)
    started = time.monotonic()
    outer, _ = signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3))
    try:
        try:
            yield
        except BaseException as exc:
            if timer.expired and not isinstance(exc, OverBudget):
                raise OverBudget from exc
            raise
        if timer.expired:  # the interruption was caught on the way: what the block made is not to be trusted
            raise OverBudget
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:  # a timer someone else set (a test runner's timeout) runs on
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 1e-3))
