"""Fuzzing the static pass: generated programs (hypothesmith) and seeded mutations
of the examples, each made an entry (an injected `@torch.compile`, and a `forward`
under `assume-compiled`). The analyzer must never raise and must finish in time.
The abstract interpreter is fuzzed in a process of its own (sandbox_fuzz.py): generated
programs and value blow-ups run as a script's `__main__` and a compiled function's body,
under a memory cap, each within a CPU-time bound, the count of programs tried checked.

The default run is ~140 examples in a few seconds; VTLINT_FUZZ_EXAMPLES=N scales
every test up (e.g. 5000 for a long run)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vtlint.analyzer.files import SourceFile
from vtlint.check import CheckResult, run_check
from vtlint.config import Config

EXAMPLES = Path(__file__).parents[2] / "examples"
SCALE = int(os.environ.get("VTLINT_FUZZ_EXAMPLES", "0"))
BOUND_S = 30.0  # per program, on a loaded 2-core CI machine; a hang is minutes


def _settings(default: int) -> settings:
    return settings(max_examples=SCALE or default, deadline=None, derandomize=not SCALE, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _analyze(tmp: Path, sources: dict[str, str]) -> CheckResult:
    """run_check on unsaved texts (no disk), every `forward` assumed compiled."""
    config = Config(root=tmp).with_(assume_compiled=("forward",))
    files = [SourceFile(tmp / name, name) for name in sources]
    started = time.monotonic()
    result = run_check([tmp], config, use_cache=False, files=files,
                       overrides={tmp / name: text for name, text in sources.items()})
    assert time.monotonic() - started < BOUND_S
    return result


def as_entries(program: str) -> str:
    """The program three times over: as is with every top-level `def` compiled, as
    the body of a compiled function, and as the body of an nn.Module's forward."""
    compiled = "".join(f"@torch.compile\n{line}\n" if line.startswith(("def ", "async def ")) else f"{line}\n"
                       for line in program.splitlines())
    body = textwrap.indent(program, "    ") or "    pass\n"
    return (f"import torch\n{compiled}\n\n@torch.compile(dynamic=False)\ndef entry(x, n, cfg):\n{body}\n"
            f"    return x\n\n\nclass M(torch.nn.Module):\n    def forward(self, x, n):\n{textwrap.indent(body, '    ')}\n"
            f"        return x\n\n\nentry(torch.ones(2), 3, None)\nM()(torch.ones(2), 4)\n")


@_settings(20)
@given(program=hypothesmith.from_grammar())
def test_grammar_programs_never_crash_the_analyzer(tmp_path_factory: pytest.TempPathFactory, program: str) -> None:
    tmp = tmp_path_factory.mktemp("fuzz")
    _analyze(tmp, {"prog.py": program, "entries.py": as_entries(program)})


@_settings(20)
@given(program=hypothesmith.from_node())
def test_valid_programs_are_parsed_not_reported_as_syntax_errors(tmp_path_factory: pytest.TempPathFactory,
                                                                  program: str) -> None:
    tmp = tmp_path_factory.mktemp("fuzz")
    result = _analyze(tmp, {"prog.py": program, "entries.py": as_entries(program)})
    assert not [f for f in result.findings if f.location.path == "prog.py" and f.code == "VTL001"]


_EXAMPLE_TEXTS = {p.name: p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.glob("*.py"))}
_MUTATION = st.tuples(st.sampled_from(["delete", "duplicate", "swap", "dedent", "indent"]),
                      st.integers(0, 10_000), st.integers(0, 10_000))


def mutate(text: str, mutations: list[tuple[str, int, int]]) -> str:
    lines = text.splitlines()
    for op, a, b in mutations:
        if not lines:
            break
        i, j = a % len(lines), b % len(lines)
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(j, lines[i])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "dedent":
            lines[i] = lines[i][4:] if lines[i].startswith("    ") else lines[i]
        else:
            lines[i] = "    " + lines[i]
    return "\n".join(lines) + "\n"


@_settings(25)
@given(name=st.sampled_from(sorted(_EXAMPLE_TEXTS)), mutations=st.lists(_MUTATION, min_size=1, max_size=8))
def test_mutated_examples_never_crash_the_analyzer(tmp_path_factory: pytest.TempPathFactory, name: str,
                                                   mutations: list[tuple[str, int, int]]) -> None:
    tmp = tmp_path_factory.mktemp("mutant")
    sources = dict(_EXAMPLE_TEXTS)  # the other examples stay intact: cross-module inlining still runs
    sources[name] = mutate(sources[name], mutations)
    result = _analyze(tmp, sources)
    assert set(result.files) == set(sources)


def test_mutate_is_deterministic_and_changes_the_text() -> None:
    text = "a = 1\nb = 2\nc = 3\n"
    assert mutate(text, [("swap", 0, 2)]) == "c = 3\nb = 2\na = 1\n"
    assert mutate(text, [("delete", 4, 0), ("indent", 0, 0)]) == "    a = 1\nc = 3\n"


SANDBOX_PROGRAMS = SCALE or 40
SANDBOX_MEMORY = 3 << 30  # address space of the child (Python and LibCST map ~1 GB of it)
SANDBOX_CPU_S = 2.0  # per program: the bound on any run of the abstract interpreter
SANDBOX_RSS_MB = 500


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (SANDBOX_MEMORY, SANDBOX_MEMORY))


def test_the_abstract_interpreter_runs_generated_programs_within_its_caps(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    with (tmp_path / "err.txt").open("w") as err:
        child = subprocess.Popen([sys.executable, "-m", "tests.reliability.sandbox_fuzz", str(SANDBOX_PROGRAMS),
                                  str(report)], cwd=Path(__file__).parents[2], stderr=err, preexec_fn=_capped,
                                 env={**os.environ, "VTLINT_CACHE_DIR": str(tmp_path / "cache")})
        timer = threading.Timer(60 + SANDBOX_PROGRAMS * 5, child.kill)  # a hang is minutes
        timer.start()
        _, status, usage = os.wait4(child.pid, 0)
        timer.cancel()
    running = report.with_suffix(".current.py")
    assert os.waitstatus_to_exitcode(status) == 0, ((tmp_path / "err.txt").read_text()[-3000:],
                                                    running.read_text() if running.exists() else "")
    found = json.loads(report.read_text())
    assert found["programs"] == SANDBOX_PROGRAMS, found["programs"]
    assert found["max_cpu_s"] < SANDBOX_CPU_S, found["slowest"]
    assert (found["peak_mb"] or usage.ru_maxrss / (1 << 20 if sys.platform == "darwin" else 1 << 10)) < SANDBOX_RSS_MB
