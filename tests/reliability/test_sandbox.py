"""The abstract interpreter as a sandbox with a budget (issue 35, items 1-3 and the analyzer's
part of 11): every denial-of-service input of the issue is analyzed in a process of its own,
which must finish within 2 s of analysis and 500 MB of memory, the value it could not follow
named in a note ("value too large to follow") instead of an error. Each input is a script
whose `__main__` (or whose compiled function) computes the value; `g` is the compiled entry
it reaches. The figures are the child's own: its CPU time around `run_check`, and the peak of
its own address space (Linux's VmHWM; a fork's rusage also counts the forking pytest worker's
pages, which exec does not forget)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
import pytest

from vtlint.analyzer.index import Project
from vtlint.analyzer.summary import summarize
from vtlint.analyzer.walk import MODULE_FRAME, Act, Walker
from vtlint.check import run_check
from vtlint.cli import EXIT_ERROR, _internal_error
from vtlint.config import Config, DynamoSettings

MAX_SECONDS = 2.0  # analysis, in CPU seconds of the child around run_check (a loaded machine's clock runs on)
MAX_RSS_MB = 500
REPOSITORY = Path(__file__).parents[2]

ENTRY = """\
import torch


@torch.compile
def g(x, n):
    if n > 0:
        return x + 1
    return x


"""


def _main(body: str, imports: str = "") -> str:
    return ENTRY + imports + "if __name__ == '__main__':\n" + textwrap.indent(textwrap.dedent(body), "    ")


_YAML_BOMB = "\n".join([
    'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]',
    *(f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]" for p, n in zip("abcdefgh", "bcdefghi")),
])


@dataclass(frozen=True)
class Bomb:
    name: str
    source: str
    # what the note on `g` says it could not follow, when the value reaches `g` (None: only the eager run
    # of `__main__` meets it, and notes it there)
    note: str | None
    walked: bool = True  # False: a phase before the walk (LibCST's positions) may find it too deep


BOMBS = [
    # item 1: values computed without bound
    Bomb("squaring", _main("n = 7\nfor i in range(40):\n    n = n * n\ng(torch.ones(2), n)\n"), "an int over"),
    Bomb("range_loop_in_main", _main("x = torch.ones(2)\nfor i in range(10**12):\n    g(x, i)\n"), None),
    Bomb("range_loop_compiled", "import torch\n\n\n@torch.compile\ndef g(x, n):\n    for i in range(10**12):\n"
         "        x = x + i\n    return x\n\n\ng(torch.ones(2), 1)\n", None),
    Bomb("list_of_a_range", _main("xs = list(range(10**10))\ng(torch.ones(2), len(xs))\n"), "a container over"),
    Bomb("range_10_7", _main("xs = list(range(10**7))\ng(torch.ones(2), len(xs))\n"), "a container over"),
    Bomb("dict_comprehension", _main("d = {i: i for i in range(10**9)}\ng(torch.ones(2), len(d))\n"), None),
    Bomb("factorial", _main("g(torch.ones(2), math.factorial(10**7))\n", "import math\n"), "an int over"),
    Bomb("power", _main("g(torch.ones(2), 10**5000)\n"), "an int over"),
    Bomb("round_to_a_huge_negative_digit", _main("g(torch.ones(2), round(5, -10**9))\n"), "an int over"),
    Bomb("string_times", _main("s = 'a' * 100000000 * 30\ng(torch.ones(2), len(s))\n"), "a string over"),
    Bomb("string_doubling", _main("s = 'ab'\nfor i in range(40):\n    s = s + s\ng(torch.ones(2), len(s))\n"),
         "a string over"),
    Bomb("printf_width", _main("s = '%1000000000d' % 5\ng(torch.ones(2), len(s))\n"), "a string over"),
    Bomb("fstring_width", _main("s = f'{5:>1000000000}'\ng(torch.ones(2), len(s))\n"), None),
    Bomb("replace_blowup", _main("s = 'a' * 1000\nfor i in range(6):\n    s = s.replace('a', 'a' * 100)\n"
                                 "g(torch.ones(2), len(s))\n"), None),
    Bomb("extend_doubling", _main("xs = [1]\nfor i in range(64):\n    xs.extend(xs)\ng(torch.ones(2), len(xs))\n"),
         None),
    Bomb("concatenation_doubling", _main("xs = [1]\nfor i in range(64):\n    xs = xs + xs\n"
                                         "g(torch.ones(2), len(xs))\n"), None),
    Bomb("spread_doubling", _main("xs = [1]\nfor i in range(64):\n    xs = [*xs, *xs]\ng(torch.ones(2), len(xs))\n"),
         None),
    Bomb("split_past_the_bound", _main("t = ',' * 200000\nparts = t.split(',')\ng(torch.ones(2), len(parts))\n"),
         "a container over"),
    Bomb("split_in_a_loop", _main("t = ',' * 10000\nkept = []\nfor i in range(64):\n    kept.append(t.split(','))\n"
                                  "g(torch.ones(2), len(kept))\n"), None),
    Bomb("huge_hex_literal", _main(f"g(torch.ones(2), 0x{'f' * 5000})\n"), "an int over"),
    # item 2: an expansion bomb in a configuration the script parses
    Bomb("yaml_alias_bomb", _main("cfg = yaml.safe_load(CONFIG)\ng(torch.ones(2), len(cfg['i']))\n",
                                  f"import yaml\n\nCONFIG = '''\n{_YAML_BOMB}\n'''\n"), None),
    # item 3: valid Python, deeply nested
    Bomb("sum_of_2000_terms", _main(f"n = {' + '.join(['1'] * 2000)}\ng(torch.ones(2), n)\n"), None, walked=False),
    Bomb("and_of_5000_terms", _main(f"n = {' and '.join(['1'] * 5000)}\ng(torch.ones(2), n)\n"), None,
         walked=False),
]

_CHILD = """\
import json, sys, time
from pathlib import Path
from tests.reliability.sandbox_fuzz import peak_mb
from vtlint.check import run_check
from vtlint.config import Config
root = Path(sys.argv[1])
started = time.process_time()
result = run_check([root], Config(root=root), use_cache=False)
print(json.dumps({"seconds": time.process_time() - started, "peak_mb": peak_mb(),
                  "notes": [n.message for n in result.notifications], "findings": [f.message for f in result.findings],
                  "entries": [e.entry for e in result.entries]}))
"""


def _analyze_alone(tmp_path: Path, name: str, source: str) -> tuple[dict, float]:
    """The analysis of one file in a child process: what it found, and its peak RSS in MB."""
    (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
    out, err = tmp_path / "out.json", tmp_path / "err.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        child = subprocess.Popen([sys.executable, "-c", _CHILD, str(tmp_path)], stdout=stdout, stderr=stderr,
                                 cwd=REPOSITORY, env={**os.environ, "VTLINT_CACHE_DIR": str(tmp_path / "cache")})
        _, status, usage = os.wait4(child.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, err.read_text()
    found = json.loads(out.read_text())
    rss_mb = found["peak_mb"] or usage.ru_maxrss / (1 << 20 if sys.platform == "darwin" else 1 << 10)
    return found, rss_mb


@pytest.mark.parametrize("bomb", BOMBS, ids=[b.name for b in BOMBS])
def test_a_denial_of_service_input_is_analyzed_within_budget(tmp_path: Path, bomb: Bomb) -> None:
    found, rss_mb = _analyze_alone(tmp_path, bomb.name, bomb.source)
    assert found["seconds"] < MAX_SECONDS, found
    assert rss_mb < MAX_RSS_MB
    assert found["entries"] == [f"{bomb.name}.py:g"] or not bomb.walked
    if bomb.note is not None:
        assert any("value too large to follow" in n and bomb.note in n for n in found["notes"]), found["notes"]


def test_the_note_names_where_the_value_was_made(tmp_path: Path) -> None:
    (tmp_path / "square.py").write_text(BOMBS[0].source)
    result = run_check([tmp_path], Config(root=tmp_path), use_cache=False)
    [note] = [n.message for n in result.notifications if "too large" in n.message]
    assert note == ("square.py:g: value too large to follow at square.py:14 (an int over 4,096 bits): the static "
                    "pass goes on without it")
    [baked] = [f for f in result.findings if f.source == "L['n']"]
    assert baked.guard is None or "L['n']" in baked.guard  # guarded, its value not printed


def _eager_walk(expression: str) -> object:
    """`expression` evaluated by the eager walk of a one-line module, as the driver runs `__main__`."""
    text = "x = 1\n"
    project = Project([summarize(cst.parse_module(text), "m.py", text)], {"m.py": text})
    parsed = project.parsed("m.py")
    assert parsed is not None
    walker = Walker(project, DynamoSettings(), f"m.py:{MODULE_FRAME}", MODULE_FRAME)
    walker.eager = 1
    return walker.expr(cst.parse_expression(expression), Act(parsed, MODULE_FRAME, {})).value


def test_long_chains_are_walked_in_a_loop_not_a_recursion() -> None:
    """Python's default recursion limit (1,000) is far below these chains' depth."""
    assert _eager_walk(" + ".join(["1"] * 2000)) == 2000
    assert _eager_walk(" and ".join(["1"] * 5000) + " and 7") == 7
    assert _eager_walk(" or ".join(["0"] * 5000) + " or 3") == 3


@pytest.mark.parametrize("bomb", [b for b in BOMBS if b.name in ("sum_of_2000_terms", "and_of_5000_terms")],
                         ids=lambda b: b.name)
def test_a_deep_expression_in_main_is_no_internal_error(tmp_path: Path, bomb: Bomb) -> None:
    (tmp_path / "deep.py").write_text(bomb.source)
    done = subprocess.run([sys.executable, "-m", "vtlint", "check", "--no-cache", "deep.py"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "VTLINT_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    # analyzed, or (where a phase of the analysis recursed) reported as too complex: never a crash
    assert "deep.py" in done.stdout


class _Unprintable(Exception):
    def __str__(self) -> str:
        return self.__str__()  # as a deeply nested tree's repr does: RecursionError


def test_the_internal_error_path_never_recurses(capsys: pytest.CaptureFixture[str]) -> None:
    assert _internal_error(_Unprintable()) == EXIT_ERROR
    assert _internal_error(KeyError("x" * 100_000)) == EXIT_ERROR
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "vtlint: internal error: _Unprintable: (its message could not be shown)"
    assert err[2].startswith("vtlint: internal error: KeyError: 'xxx") and len(err[2]) < 600


def test_a_list_literal_past_the_bound_is_noted_not_followed(tmp_path: Path) -> None:
    """Item 11's 200,000-element literal, smaller (its parse, not the walk, costs the seconds): the
    module's summary keeps a list of unknown length, and the walk that reads it says why."""
    (tmp_path / "data.py").write_text("import torch\n\nDATA = [" + ", ".join(map(str, range(20_000))) + "]\n\n\n"
                                      "@torch.compile\ndef g(x):\n    return x + DATA[5]\n\n\ng(torch.ones(2))\n")
    result = run_check([tmp_path], Config(root=tmp_path), use_cache=False)
    assert [n.message for n in result.notifications] == [
        "data.py:g: value too large to follow at data.py:8 (a container over 16,384 elements): the static pass "
        "goes on without it"]
    [length] = [f for f in result.findings if f.source == "G['DATA']"]
    assert "== 20000" not in (length.guard or "")  # its length is not known, so not printed


def test_the_200000_element_list_literal_is_refused_within_budget(tmp_path: Path) -> None:
    """Item 11's reproduction itself (16.6 s and 1.2 GB): 400,000 tokens, past the parse's token bound,
    so the file is counted (streaming, without a tree) and given up with a warning, not parsed."""
    source = ("import torch\n\nDATA = [" + ", ".join(map(str, range(200_000))) + "]\n\n\n"
              "@torch.compile\ndef g(x):\n    return x + DATA[5]\n\n\ng(torch.ones(2))\n")
    found, rss_mb = _analyze_alone(tmp_path, "data", source)
    assert found["seconds"] < MAX_SECONDS and rss_mb < MAX_RSS_MB, (found["seconds"], rss_mb)
    assert [n for n in found["notes"] if "data.py: more than 250,000 tokens, too large to analyze" in n], found


def test_a_thousand_deep_module_class_chain_is_followed(tmp_path: Path) -> None:
    """Item 11: `torch.compile(C999())` of a 1,000-deep chain of nn.Module subclasses was dropped
    silently ("All checks passed": its bases were read 20 deep); C0's forward breaks the graph."""
    chain = "".join(f"class C{i}(C{i - 1}):\n    pass\n\n\n" for i in range(1, 1000))
    source = ("import torch\n\n\nclass C0(torch.nn.Module):\n    def forward(self, x):\n        print(x)\n"
              f"        return x\n\n\n{chain}m = torch.compile(C999())\nm(torch.ones(2))\n")
    found, rss_mb = _analyze_alone(tmp_path, "chain", source)
    assert found["seconds"] < MAX_SECONDS and rss_mb < MAX_RSS_MB, (found["seconds"], rss_mb)
    assert found["entries"] == ["chain.py:C0.forward"]
    assert any("GB0059" in f for f in found["findings"]), found["findings"]


def test_a_boolean_chain_past_libcsts_stack_is_refused_not_a_crash(tmp_path: Path) -> None:
    """10,000 `and` terms: Python parses them flat, LibCST's native parser overflowed its stack (the process
    died, exit 139); the file is now a VTL001 naming the chain, and the run goes on."""
    (tmp_path / "chain.py").write_text(f"x = {' and '.join(['1'] * 10_000)}\n")
    (tmp_path / "ok.py").write_text("y = 1\n")
    done = subprocess.run([sys.executable, "-m", "vtlint", "check", "--no-cache", "."], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "VTLINT_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 1, done.stderr[-2000:]
    assert "chain.py:1:5: VTL001 too complex to parse: a chain of more than 4,000 `and`/`or` terms" in done.stdout
    assert "in 2 files" in done.stdout


def test_a_value_the_script_makes_too_large_is_noted_even_if_no_compiled_call_gets_it(tmp_path: Path) -> None:
    (tmp_path / "run.py").write_text("import torch\n\n\n@torch.compile\ndef g(x):\n    return x + 1\n\n\n"
                                     "if __name__ == '__main__':\n    n = 7\n    for i in range(40):\n        n = n * n\n"
                                     "    g(torch.ones(2))\n")
    done = subprocess.run([sys.executable, "-m", "vtlint", "check", "--no-cache", "--format", "json", "."],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "VTLINT_CACHE_DIR": str(tmp_path / "cache")})
    notes = [n["message"] for n in json.loads(done.stdout)["notifications"]]
    assert "value too large to follow at run.py:12 (an int over 4,096 bits): the static pass goes on without it" \
        in notes, notes
