"""Run tasks in forked worker processes, a few at a time, each task with a time limit: a crash
or a hang loses one task (its worker is killed and replaced). The parent imports the heavy
modules once, before the forks. A worker runs up to `per_worker` tasks (None: any number), so
what it caches (the static pass's parsed library modules) serves the next ones."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Result = tuple[bool, Any]  # (True, value) or (False, why it failed)


def _serve(tasks: list[tuple[str, Callable[[], Any]]], pipe: Any) -> None:
    while (index := pipe.recv()) is not None:
        try:
            result: Result = (True, tasks[index][1]())
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            message = str(exc).splitlines()[0][:200] if str(exc) else ""
            result = (False, f"{type(exc).__name__}: {message}")
        pipe.send(result)


@dataclass
class _Worker:
    process: Any
    pipe: Any
    task: int | None = None
    started: float = 0.0
    done: int = 0


def run_forked(tasks: list[tuple[str, Callable[[], Any]]], jobs: int, limit_s: float,
               done: Callable[[str, Result], None] | None = None, per_worker: int | None = None) -> dict[str, Result]:
    """name -> (ok, value); `done` is told of each result as it comes."""
    context = multiprocessing.get_context("fork")
    pending = list(range(len(tasks)))
    workers: list[_Worker] = []
    results: dict[str, Result] = {}

    def spawn() -> _Worker:
        mine, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(tasks, theirs))
        process.start()
        theirs.close()
        return _Worker(process, mine)

    def retire(worker: _Worker, kill: bool = False) -> None:
        if kill:
            worker.process.kill()
        else:
            worker.pipe.send(None)
        worker.process.join()
        worker.pipe.close()
        workers.remove(worker)

    try:
        while pending or any(w.task is not None for w in workers):
            for worker in [w for w in workers if w.task is None and per_worker and w.done >= per_worker]:
                retire(worker)
            while pending and sum(1 for w in workers if w.task is not None) < jobs:
                worker = next((w for w in workers if w.task is None), None) or spawn()
                if worker not in workers:
                    workers.append(worker)
                worker.task, worker.started = pending.pop(0), time.monotonic()
                worker.pipe.send(worker.task)
            for worker in [w for w in workers if w.task is not None]:
                alive = worker.process.is_alive()  # before the poll: a worker that is gone has sent all it will
                healthy = False
                if worker.pipe.poll():
                    try:
                        result, healthy = worker.pipe.recv(), True
                    except EOFError:
                        result = (False, f"the worker died (exit {worker.process.exitcode})")
                elif not alive:
                    result = (False, f"the worker died (exit {worker.process.exitcode})")
                elif time.monotonic() - worker.started > limit_s:
                    result = (False, f"over {limit_s:g} s")
                else:
                    continue
                name = tasks[worker.task][0]
                results[name] = result
                worker.task, worker.done = None, worker.done + 1
                if not healthy:
                    retire(worker, kill=True)
                if done:
                    done(name, result)
            time.sleep(0.02)
    finally:  # done, or interrupted: no worker outlives the call
        for worker in list(workers):
            retire(worker, kill=worker.task is not None)
    return results
