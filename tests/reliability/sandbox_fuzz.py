"""The abstract interpreter fuzzed in a process of its own (test_fuzz.py starts it under a
memory cap and reads the JSON it writes): generated programs run as a script's `__main__`
and as a compiled function's body, each analysis timed in CPU seconds. Two sources: valid
Python from hypothesmith, and programs built to blow values up (big powers, shifts,
string and list repetition, ranges, factorials, splits and replaces, in loops), which
the walk must refuse to compute rather than compute.

    python -m tests.reliability.sandbox_fuzz EXAMPLES REPORT.json
"""

from __future__ import annotations

import json
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import hypothesmith
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vtlint.analyzer.files import SourceFile
from vtlint.check import run_check
from vtlint.config import Config

ENTRY = ("import math\nimport torch\n\n\n@torch.compile\ndef g(x, n):\n    if n > 0:\n        return x + 1\n"
         "    return x\n\n\n")

_LEAVES = ["0", "1", "2", "7", "64", "10**6", "10**12", "-3", "2**31", "''", "'a'", "'ab,'", "'%1000000000d'",
           "'x\\n'", "[1, 2]", "(1,)", "range(10**9)", "{'a': 1}"]
_BINARY = ["+", "-", "*", "**", "<<", "%", "//"]
_CALLS = ["len", "str", "list", "tuple", "sum", "max", "abs", "int", "sorted", "math.factorial", "round", "range",
          "enumerate", "reversed"]
_METHODS = [".replace('a', 'a' * 100)", ".split(',')", ".zfill(10**9)", ".join(['ab'] * 1000)", ".upper()",
            ".splitlines()", ".count('a')"]


def _expressions(names: list[str]) -> st.SearchStrategy[str]:
    leaves = st.sampled_from(_LEAVES + names)
    return st.recursive(leaves, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(_BINARY), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(_CALLS), inner).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(inner, st.sampled_from(_METHODS)).map(lambda t: f"{t[0]}{t[1]}"),
        inner.map(lambda e: f"[*{e}, *{e}]"),
        inner.map(lambda e: f"{{i: i for i in range({e})}}"),
        inner.map(lambda e: f"f'{{{e}:>1000000000}}'"),
    ), max_leaves=5)


@st.composite
def blow_ups(draw: st.DrawFn) -> str:
    """A script whose `__main__` grows values in loops and passes the last to the compiled `g`."""
    names: list[str] = []
    body: list[str] = []
    for i in range(draw(st.integers(1, 4))):
        line = f"v{i} = {draw(_expressions(names))}"
        loop = draw(st.sampled_from([None, 5, 40, 10**12]))
        if loop is not None and names:
            line = f"for _ in range({loop}):\n    {names[-1]} = {draw(_expressions(names))}\n{line}"
        body.append(line)
        names.append(f"v{i}")
    body.append(f"g(torch.ones(2), {names[-1]})")
    return "\n".join(body) + "\n"


def as_script(program: str) -> str:
    """`program` as a script's `__main__` and as a compiled function's body, both reaching `g`."""
    body = textwrap.indent(program, "    ") or "    pass\n"
    return (f"{ENTRY}@torch.compile\ndef h(x, n):\n{body}\n    return x\n\n\n"
            f"if __name__ == '__main__':\n{body}\n    h(torch.ones(2), 3)\n")


def main(examples: int, report: Path) -> None:
    tried: list[tuple[float, str]] = []

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(program=st.one_of(hypothesmith.from_node(), blow_ups()))
    def run(program: str) -> None:
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            text = as_script(program)
            report.with_suffix(".current.py").write_text(text)  # what was running, should it not end
            started = time.process_time()
            run_check([root], Config(root=root), use_cache=False, files=[SourceFile(root / "prog.py", "prog.py")],
                      overrides={root / "prog.py": text})
            tried.append((time.process_time() - started, text))

    run()
    slowest = max(tried) if tried else (0.0, "")
    report.write_text(json.dumps({"programs": len(tried), "max_cpu_s": slowest[0], "slowest": slowest[1],
                                  "peak_mb": peak_mb()}))


def peak_mb() -> float | None:
    """This process's peak resident memory in MB: Linux's VmHWM, of its own address space only (a
    fork's rusage also counts the forking pytest worker's pages); None where /proc does not tell."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return None
    return next((int(line.split()[1]) / 1024 for line in status.splitlines() if line.startswith("VmHWM:")), None)


if __name__ == "__main__":
    main(int(sys.argv[1]), Path(sys.argv[2]))
