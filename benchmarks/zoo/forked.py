"""Run tasks in forked children, a few at a time, each with a time limit: one crash or hang
loses one task. The parent imports the heavy modules once, before the forks."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from typing import Any

Result = tuple[bool, Any]  # (ok, value) or (False, why it failed)


def _child(task: Callable[[], Any], pipe: Any) -> None:
    try:
        result: Result = (True, task())
    except BaseException as exc:  # noqa: BLE001 - reported to the parent
        message = str(exc).splitlines()[0][:200] if str(exc) else ""
        result = (False, f"{type(exc).__name__}: {message}")
    pipe.send(result)
    pipe.close()


def run_forked(tasks: list[tuple[str, Callable[[], Any]]], jobs: int, limit_s: float,
               done: Callable[[str, Result], None] | None = None) -> dict[str, Result]:
    """name -> (ok, value); `done` is told of each result as it comes."""
    context = multiprocessing.get_context("fork")
    pending, running = list(tasks), {}
    results: dict[str, Result] = {}
    while pending or running:
        while pending and len(running) < jobs:
            name, task = pending.pop(0)
            reader, writer = context.Pipe(duplex=False)
            process = context.Process(target=_child, args=(task, writer))
            process.start()
            writer.close()
            running[name] = (process, reader, time.monotonic())
        for name, (process, reader, started) in list(running.items()):
            alive = process.is_alive()  # before the poll: a child that is gone has sent all it will
            if reader.poll():
                try:
                    result = reader.recv()
                except EOFError:
                    result = (False, f"the child died (exit {process.exitcode})")
            elif not alive:
                result = (False, f"the child died (exit {process.exitcode})")
            elif time.monotonic() - started > limit_s:
                process.kill()
                result = (False, f"over {limit_s:g} s")
            else:
                continue
            process.join()
            reader.close()
            del running[name]
            results[name] = result
            if done:
                done(name, result)
        time.sleep(0.02)
    return results
