"""Run the user's harness command under the structured trace, in its own
process group, with a timeout; never lose what it traced before it stopped.

Each run gets a private temporary directory (trace, hook records, captured
output) that is removed afterwards, so two runs at once share nothing."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from vtlint.runtime.hook import harness_env

GRACE_S = 5.0  # between SIGTERM and SIGKILL for what is left of the harness's process group
POLL_S = 0.2
TAIL_LINES = 20


@dataclass
class HarnessRun:
    """How the harness process ended."""

    command: list[str]
    returncode: int | None = None  # negative: killed by that signal (POSIX)
    timed_out: bool = False
    timeout: float | None = None  # the limit it ran under, in seconds
    not_started: str | None = None  # why the command could not be started
    duration_s: float = 0.0
    output_tail: list[str] = field(default_factory=list)  # last lines of its stdout+stderr

    @property
    def ok(self) -> bool:
        return self.not_started is None and not self.timed_out and self.returncode == 0

    def fault(self) -> str | None:
        """One sentence on what went wrong, in the user's terms, or None."""
        shown = shlex.join(self.command)
        if self.not_started:
            return f"cannot run the harness `{shown}`: {self.not_started}"
        if self.timed_out:
            return f"the harness `{shown}` did not finish within {self.timeout:g} s; its process group was stopped"
        if self.returncode is not None and self.returncode < 0:
            try:
                name = signal.Signals(-self.returncode).name
            except ValueError:
                name = f"signal {-self.returncode}"
            return f"the harness `{shown}` was killed by {name}"
        if self.returncode:
            return f"the harness `{shown}` exited with status {self.returncode}"
        return None

    def to_dict(self) -> dict[str, object]:
        return {"command": shlex.join(self.command), "exit_code": self.returncode, "timed_out": self.timed_out,
                "not_started": self.not_started, "duration_s": round(self.duration_s, 3)}


def split_command(command: str | Sequence[str]) -> list[str]:
    """shell=False: a string is split the way a POSIX shell would split it."""
    return shlex.split(command) if isinstance(command, str) else list(command)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a member changed its credentials: still there
        return True
    return True


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the harness's whole process group, SIGKILL what is left after GRACE_S,
    and reap the harness. Also after a normal exit: a child it left behind (a data
    loader, a compile worker) is still in the group and must not outlive the run."""
    pgid = process.pid  # start_new_session: the harness leads its own group
    deadline = time.monotonic() + GRACE_S
    try:
        os.killpg(pgid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        pass
    while time.monotonic() < deadline and _group_alive(pgid):
        process.poll()  # an unreaped harness keeps the group alive
        time.sleep(0.05)
    if _group_alive(pgid):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    process.wait()  # reap: no zombie left behind


@contextmanager
def terminate_raises() -> Iterator[None]:
    """While the harness runs, SIGTERM to vtlint raises SystemExit(143) instead of
    killing it at once, so the harness's group is stopped and temp folders are
    removed on the way out (SIGINT already raises KeyboardInterrupt). A second
    SIGTERM during that cleanup is ignored. Only the main thread may set handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _tail(path: Path) -> list[str]:
    try:
        with path.open("rb") as handle:
            handle.seek(max(0, path.stat().st_size - 16_384))
            lines = handle.read().decode("utf-8", errors="replace").splitlines()
    except OSError:
        return []
    return lines[-TAIL_LINES:]


def run_harness(
    command: str | Sequence[str],
    *,
    cwd: Path,
    trace_dir: Path,
    output_file: Path,
    timeout: float,
    extra_env: dict[str, str] | None = None,
    progress: Callable[[float], None] | None = None,
) -> HarnessRun:
    """Run `command` in `cwd` with the user's environment plus TORCH_TRACE=`trace_dir`;
    stdout and stderr go to `output_file` (so a report on stdout stays clean)."""
    argv = split_command(command)
    run = HarnessRun(argv, timeout=timeout)
    if not argv:
        run.not_started = "the command is empty"
        return run
    env = harness_env(trace_dir)
    env.update(extra_env or {})
    started = time.monotonic()
    with output_file.open("wb") as sink:
        try:
            process = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=sink,
                                       stderr=subprocess.STDOUT, start_new_session=True)
        except OSError as exc:
            run.not_started = f"{argv[0]}: {exc.strerror or exc}"
            return run
        try:
            while True:
                try:
                    run.returncode = process.wait(timeout=POLL_S)
                    break
                except subprocess.TimeoutExpired:
                    elapsed = time.monotonic() - started
                    if progress:
                        progress(elapsed)
                    if elapsed >= timeout:
                        run.timed_out = True
                        break
        finally:  # exited, timed out or interrupted (Ctrl-C, SIGTERM): leave nothing running
            _stop_group(process)
    if run.timed_out:
        run.returncode = process.returncode
    run.duration_s = time.monotonic() - started
    run.output_tail = _tail(output_file)
    return run
