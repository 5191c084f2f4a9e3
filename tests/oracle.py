"""The torch oracle every golden suite uses: what Dynamo really does with a
set of small programs, and what vtlint predicts for the same files.

    programs = {"scalar_arg": '''
        import torch
        @torch.compile
        def f(x, n):
            return x * n
        def run():
            f(torch.ones(2), 3)
    '''}
    seen = observe(programs)            # one subprocess, one torch import
    said = predict(programs)            # the static analyzer, no torch
    assert {e.key for e in said["scalar_arg"]} ... {e.key for e in seen["scalar_arg"].events}

Each program is a full module written to `<tmp>/<name>.py` (so its display
path is `<name>.py`); by convention it defines `run()`, which performs the
compiled calls. All programs run in ONE subprocess under TORCH_TRACE, with
`torch._dynamo.reset()` between them and every `torch.compile` forced to
`backend="eager"` (Dynamo's guards, breaks and recompiles do not depend on
the backend). Use it from a module-scoped fixture so a suite of 60 programs
costs one torch import. Nothing is cached between runs."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from vtlint.check import RuntimeInput
from vtlint.runtime.events import EntryCoverage, Observed, to_events
from vtlint.runtime.hook import harness_env
from vtlint.runtime.structured_trace import Compile, TraceFacts, parse_trace_dir
from vtlint.trace import Action, Event

RUNNER = Path(__file__).parent / "runtime" / "oracle_runner.py"


@dataclass
class Observation:
    """What the runtime saw for one program."""

    name: str
    events: list[Event]
    compiles: list[Compile]  # the raw facts of this program's frames
    error: str | None = None  # what run() raised ("Unsupported: ..."), or "timeout"
    problems: list[str] = field(default_factory=list)
    coverage: dict[str, EntryCoverage] = field(default_factory=dict)  # entries this program compiled

    def runtime_input(self) -> RuntimeInput:
        """This program's facts as `run_check(..., runtime=...)` merges them."""
        observed = Observed(self.events, self.coverage)
        return RuntimeInput(self.events, observed.exercised)

    def of(self, action: Action) -> list[Event]:
        return [e for e in self.events if e.action is action]

    @property
    def keys(self) -> set[tuple[object, ...]]:
        return {e.key for e in self.events}


def write_programs(programs: dict[str, str], root: Path, data: dict[str, str] | None = None) -> None:
    """Each program as `name.py` in `root`, and the data files they read (`data`: relative path -> text)."""
    for name, text in programs.items():
        if not name.isidentifier():
            raise ValueError(f"program name {name!r} must be a Python identifier (it is imported as a module)")
        (root / f"{name}.py").write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    for relative, text in (data or {}).items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")


def _run(root: Path, names: list[str], backend: str, timeout: float) -> tuple[dict[str, str | None], str]:
    results = root / ".oracle_results.jsonl"
    command = [sys.executable, str(RUNNER), str(root), str(results), backend, *names]
    try:
        done = subprocess.run(command, cwd=root, env=harness_env(root / ".trace"), capture_output=True,
                              text=True, timeout=timeout)
        output = done.stdout + done.stderr
    except subprocess.TimeoutExpired as exc:
        output = f"timeout after {timeout}s\n{exc.stdout or ''}{exc.stderr or ''}"
    errors: dict[str, str | None] = {}
    if results.exists():
        for line in results.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            errors[record["name"]] = record["error"]
    for name in names:
        errors.setdefault(name, "timeout" if output.startswith("timeout") else "crashed (no result recorded)")
    return errors, output


def _split(facts: TraceFacts, observed: Observed, names: list[str], errors: dict[str, str | None]) -> dict[str, Observation]:
    out = {}
    for name in names:
        display = f"{name}.py"
        events = [e for e in observed.events if e.location.path == display]  # by file, as predict() groups
        compiles = [c for c in facts.compiles if c.co_filename and Path(c.co_filename).name == display]
        coverage = {k: v for k, v in observed.coverage.items() if k.startswith(f"{display}:")}
        out[name] = Observation(name, events, compiles, errors.get(name), list(observed.problems), coverage)
    return out


def observe(programs: dict[str, str], *, backend: str = "eager", timeout: float = 600.0,
            root: Path | None = None, data: dict[str, str] | None = None) -> dict[str, Observation]:
    """Run every program once under the structured trace; events per program.
    `backend="default"` keeps each program's own backend (Inductor: slow)."""
    names = list(programs)
    with tempfile.TemporaryDirectory(prefix="vtlint-oracle-") as scratch:
        base = (root or Path(scratch)).resolve()
        base.mkdir(parents=True, exist_ok=True)
        write_programs(programs, base, data)
        errors, output = _run(base, names, backend, timeout)
        facts = parse_trace_dir(base / ".trace")
        if not facts.compiles and any(errors.get(n) not in (None,) for n in names):
            facts.problems.append(f"the oracle's subprocess produced no trace:\n{output[-2000:]}")
        observed = to_events(facts, base)
        return _split(facts, observed, names, errors)


def predict(programs: dict[str, str], *, root: Path | None = None,
            data: dict[str, str] | None = None) -> dict[str, list[Event]]:
    """The static analyzer's predicted events per program (same display paths as observe)."""
    from vtlint.analyzer import analyze
    from vtlint.analyzer.files import discover
    from vtlint.config import Config

    with tempfile.TemporaryDirectory(prefix="vtlint-predict-") as scratch:
        base = (root or Path(scratch)).resolve()
        base.mkdir(parents=True, exist_ok=True)
        write_programs(programs, base, data)
        config = Config(root=base)
        files = [f for f in discover([base], config).files if f.display[:-3] in programs]
        prediction = analyze(files, config, use_cache=False)
        return {name: [e for e in prediction.events if e.location.path == f"{name}.py"] for name in programs}
