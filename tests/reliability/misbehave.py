"""A stand-in harness (no torch) for the reliability fault tests: it writes a
captured structured trace into $TORCH_TRACE, then misbehaves as told.

argv: TRACE_LOG ACTION [MEGABYTES]  (ACTION: sigkill | flood | garbage | ok)"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path


def main() -> None:
    log, action = Path(sys.argv[1]), sys.argv[2]
    trace = Path(os.environ["TORCH_TRACE"])
    trace.mkdir(parents=True, exist_ok=True)
    text = log.read_text(encoding="utf-8")
    target = trace / "dedicated_log_torch_trace_fake.log"
    target.write_text(text, encoding="utf-8")
    print(f"home={os.environ.get('HOME')} trace={trace}", flush=True)  # what a report must never repeat
    if action == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    if action == "flood":  # far more output than a report needs: it must not sit in vtlint's memory
        chunk = b"x" * 1023 + b"\n"
        for _ in range(int(sys.argv[3]) * 1024):
            sys.stdout.buffer.write(chunk)
    if action == "garbage":  # binary junk and a torn JSON record after the intact entries
        with target.open("ab") as handle:
            handle.write(b"\x00\xff\xfe garbage \x80\n")
            handle.write(b'V1130 06:56:40.000000 1 torch/_logging/structured.py:28] {"dynamo_start": {"stack": [\n')


if __name__ == "__main__":
    main()
