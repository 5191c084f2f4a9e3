"""A stand-in harness for fault tests (no torch): it writes a captured
structured trace into $TORCH_TRACE, then misbehaves as told.

argv: TRACE_LOG ACTION  (ACTION: ok | exit3 | segv | hang | truncate | spawn-hang)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def main() -> None:
    log, action = Path(sys.argv[1]), sys.argv[2]
    trace = Path(os.environ["TORCH_TRACE"])
    trace.mkdir(parents=True, exist_ok=True)
    text = log.read_text(encoding="utf-8")
    if action == "truncate":
        text = text[: len(text) // 2]
    (trace / "dedicated_log_torch_trace_fake.log").write_text(text, encoding="utf-8")
    print("harness output line", flush=True)
    if action == "exit3":
        sys.exit(3)
    if action == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if action in ("hang", "spawn-hang"):
        if action == "spawn-hang":  # a grandchild that would outlive a plain kill
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            Path(os.environ["FAKE_CHILD_PID"]).write_text(str(child.pid))
        time.sleep(600)


if __name__ == "__main__":
    main()
