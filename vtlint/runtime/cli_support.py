"""What the command line needs from the runtime half: choosing the harness
command, a live progress line on a terminal, and turning facts into the
`RuntimeInput` that `run_check` merges. User code runs only from here, and
only when the user asked for a runtime step."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from vtlint.check import RuntimeInput
from vtlint.config import Config, ConfigError, seconds
from vtlint.runtime.step import FactsError, RuntimeFacts, run_step


class RuntimeUsageError(Exception):
    """A runtime option the user got wrong: one line, exit 2."""


@dataclass(frozen=True)
class RuntimeRequest:
    command: str | None  # the harness to run, or None
    facts_file: Path | None  # saved facts to merge instead
    timeout: float
    probe: bool
    config_file: Path | None = None  # whose [tool.vtlint.runtime] command runs; None: --runtime-command


def request_from(config: Config, *, runtime: bool, command: str | None, timeout: float | None,
                 facts_file: Path | None, probe: bool) -> RuntimeRequest | None:
    """`--runtime` runs `[tool.vtlint.runtime] command`; `--runtime-command CMD`
    runs CMD instead; `--runtime-facts FILE` merges facts saved by `vtlint trace`."""
    if facts_file is not None and (runtime or command):
        raise RuntimeUsageError("--runtime-facts merges saved facts; "
                                "it cannot be combined with --runtime/--runtime-command")
    if probe and not (runtime or command):
        raise RuntimeUsageError("--probe needs a runtime step: add --runtime or --runtime-command")
    if facts_file is not None:
        return RuntimeRequest(None, facts_file, timeout or config.runtime.timeout, False)
    if not (runtime or command):
        return None
    chosen = command or config.runtime.command
    if not chosen:
        raise RuntimeUsageError("--runtime: no harness command; set `command` in [tool.vtlint.runtime] "
                                "or pass --runtime-command CMD")
    if timeout is not None:
        try:
            seconds(timeout, "--runtime-timeout")
        except ConfigError as exc:
            raise RuntimeUsageError(str(exc)) from None
    return RuntimeRequest(chosen, None, timeout or config.runtime.timeout, probe,
                          None if command else config.config_file)


@contextmanager
def live_progress(command: str, enabled: bool) -> Iterator[Callable[[float], None] | None]:
    """`running python harness.py ... 12 s` on stderr while the harness runs (TTY only)."""
    if not enabled:
        yield None
        return
    from rich.console import Console

    console = Console(file=sys.stderr)
    with console.status(f"running the harness `{command}` under torch.compile's structured trace") as status:
        def update(elapsed: float) -> None:
            status.update(f"running the harness `{command}` under torch.compile's structured trace ({elapsed:.0f} s)")

        yield update


def collect(request: RuntimeRequest, config: Config, *, show_progress: bool,
            probe_plan: list[dict[str, object]] | None = None, outside: Sequence[Path] = ()) -> RuntimeFacts:
    if request.facts_file is not None:
        try:
            return RuntimeFacts.load(request.facts_file).rebased(config.root)
        except FactsError as exc:
            raise RuntimeUsageError(f"--runtime-facts: {exc}") from None
    assert request.command is not None
    if (where := where_it_runs(request, config.root)) is not None:
        print(where, file=sys.stderr)
    with live_progress(request.command, show_progress) as progress:
        # the frames of installed packages the project's calls reach are findings too, at those calls
        return run_step(request.command, config.root, timeout=request.timeout, probe=request.probe,
                        progress=progress, probe_plan=probe_plan, outside=outside, library_frames=True)


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)


def where_it_runs(request: RuntimeRequest, root: Path) -> str | None:
    """One line when the harness runs outside the current folder (the project root
    is a parent's): whose command it is, and where it runs. None otherwise."""
    if root.resolve() == Path.cwd().resolve():
        return None
    if request.config_file is not None:
        return (f"vtlint: running `{request.command}` from [tool.vtlint.runtime] of "
                f"{_shown(request.config_file)}, in {_shown(root)}")
    return f"vtlint: running `{request.command}` in the project root {_shown(root)}"


def runtime_input(request: RuntimeRequest | None, config: Config, *, show_progress: bool,
                  paths: Sequence[Path] = ()) -> RuntimeInput | None:
    """The runtime step's facts; `paths` are the checked paths, those outside the project
    root (an installed package's file named on the command line) count as project code."""
    if request is None:
        return None
    plan = probe_plan_for(config) if request.probe else None
    outside = [p for p in paths if not _under(p, config.root)]
    return collect(request, config, show_progress=show_progress, probe_plan=plan, outside=outside).to_input()


def _under(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def probe_plan_for(config: Config) -> list[dict[str, object]]:
    """The baked constants the static pass predicts on arguments and attributes:
    what `--probe` changes, one at a time, after the harness is done."""
    from vtlint.analyzer import analyze
    from vtlint.analyzer.files import discover
    from vtlint.runtime.probes import plan_from_events

    files = discover([config.root], config).files
    return plan_from_events(analyze(files, config).events, config.root)
