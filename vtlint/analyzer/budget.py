"""Wall-clock limits: on the analysis of one file (parse, positions, entry scan;
`file-budget` in the configuration) and on the walk of one compiled entry.

The walk of each entry counts its own steps against a deadline; the per-file
phases run mostly inside LibCST, where no check of ours can be placed, so the
limit is a timer signal that interrupts them. Signals reach only a process's
main thread, which is where the CLI and its `--jobs` workers analyze files; in
another thread (the language server's) the limit is a deadline that the chunked
parse and the analyzer's tree walk check as they go (`checkpoint`). The same checks
end a lint that is no longer wanted (`cancellable`: the language server's, after
another edit of the file)."""

from __future__ import annotations

import gc
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

ENTRY_BUDGET_S = 10.0  # per compiled entry: its walk (counted by the walker itself)


_thread = threading.local()  # off the main thread: the deadline of the block running; in any: its cancel event


class OverBudget(BaseException):
    """The file's analysis ran past its budget. A BaseException, so that no
    `except Exception` on the way swallows it and lets the file run on unbounded."""


class Cancelled(BaseException):
    """The analysis was cancelled from outside (a newer edit of the file): what it made is dropped.
    A BaseException, so that it unwinds the whole run past every `except Exception`."""


class _Timer:
    expired = False

    def expire(self, signum: int, frame: FrameType | None) -> None:
        self.expired = True
        raise OverBudget


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """`_time_limit`, with the cyclic garbage collector paused: a collection over the whole
    process's heap (a language server's warm parses, a big run's summaries) is not the
    file's own cost, and must not put a 15 ms file over its budget. The block's garbage
    (LibCST trees hold no cycles) is freed by reference counting all the same."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        with _time_limit(seconds):
            yield
    finally:
        if collecting:
            gc.enable()


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise OverBudget in the block once `seconds` have passed: by a timer signal in
    the main thread of a process that has `setitimer`, else at the next `checkpoint`.
    A native call (LibCST's parser) is interrupted when it returns; an error the
    interruption causes in C code (`compile` reports a SystemError) is OverBudget too."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        outer = getattr(_thread, "deadline", None)
        _thread.deadline = time.monotonic() + seconds
        try:
            yield
        finally:
            _thread.deadline = outer
        return
    timer = _Timer()
    previous = signal.signal(signal.SIGALRM, timer.expire)
    hook = sys.unraisablehook

    def quiet(unraisable: sys.UnraisableHookArgs) -> None:
        # the signal landed in a finalizer or a gc callback, which cannot raise: the
        # block still ends over budget (below), so Python's "Exception ignored" is noise
        if not isinstance(unraisable.exc_value, OverBudget):
            hook(unraisable)

    sys.unraisablehook = quiet
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
        sys.unraisablehook = hook
        if outer:  # a timer someone else set (a test runner's timeout) runs on
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 1e-3))


@contextmanager
def cancellable(cancel: threading.Event) -> Iterator[None]:
    """Run the block in this thread so that, once `cancel` is set, its next `checkpoint` raises Cancelled."""
    outer = getattr(_thread, "cancel", None)
    _thread.cancel = cancel
    try:
        yield
    finally:
        _thread.cancel = outer


def checkpoint() -> None:
    """Raise Cancelled when this thread's analysis was cancelled, OverBudget when the deadline of
    a `time_limit` block run off the main thread has passed (there no signal interrupts it).
    Cheap: called per statement of a parse, every few hundred steps of a walk."""
    cancel = getattr(_thread, "cancel", None)
    if cancel is not None and cancel.is_set():
        raise Cancelled
    deadline = getattr(_thread, "deadline", None)
    if deadline is not None and time.monotonic() > deadline:
        raise OverBudget
