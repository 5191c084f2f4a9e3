"""Run one command and measure it: wall time, CPU time (user + system of the
process and every child it waited for) and peak memory (the largest sum of the
resident sets of its process group, sampled every 50 ms from /proc, and the
kernel's own ru_maxrss of the largest single process). Linux only."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass(frozen=True)
class Measurement:
    label: str
    wall_s: float
    cpu_s: float
    peak_rss_mb: float  # the process group's resident sets summed, sampled
    max_rss_mb: float  # the largest single process (ru_maxrss)
    returncode: int
    output: str

    def to_dict(self) -> dict[str, object]:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in vars(self).items() if k != "output"}


def _group_rss(pgid: int) -> int:
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[2]) == pgid:  # field 5 of stat: the process group
                total += int(fields[21]) * PAGE  # field 24: rss in pages
        except (OSError, ValueError, IndexError):
            continue
    return total


def measure(label: str, argv: list[str], *, cwd: Path, env: dict[str, str] | None = None) -> Measurement:
    peak = 0
    done = threading.Event()
    started = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, start_new_session=True)

    def sample() -> None:
        nonlocal peak
        while not done.wait(0.05):
            peak = max(peak, _group_rss(process.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output = process.stdout.read().decode("utf-8", "replace") if process.stdout else ""
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    return Measurement(label, wall, usage.ru_utime + usage.ru_stime, peak / 2**20, usage.ru_maxrss / 1024,
                       process.returncode, output)
