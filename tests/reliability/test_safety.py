"""Safety: the static pass never imports or runs user code (CLI, `--entry`,
`--assume-compiled forward`, the language server), never imports torch, and the
runtime step runs only when asked for."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lsp.conftest import lsp_session

# Importing (or running) any of these modules leaves a marker file and opens a socket.
TRAP = """\
import pathlib, socket
pathlib.Path(__file__).with_name("IMPORTED-" + __name__).write_text("ran")
socket.socket().close()
"""


def _project(root: Path) -> Path:
    files = {
        "pkg/__init__.py": TRAP,
        "pkg/model.py": TRAP + textwrap.dedent("""
            import torch


            class Net(torch.nn.Module):
                def forward(self, x, n):
                    print(n)
                    return x * n


            @torch.compile
            def step(x, scale):
                return x * scale


            def helper(x, k):
                return x + k
            """),
        "run_me.py": TRAP + "from pkg.model import Net\nNet()(1, 2)\n",
        "harness.py": TRAP,
        "conftest.py": TRAP,
        "setup.py": TRAP,
        "pyproject.toml": '[tool.vtlint.runtime]\ncommand = "python harness.py"\n',
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _markers(root: Path) -> list[str]:
    return sorted(p.name for p in root.rglob("IMPORTED-*"))


STATIC_PROBE = """\
import sys
from vtlint.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
user = {"pkg", "pkg.model", "run_me", "harness", "conftest", "setup"}
leaked = sorted(m for m in sys.modules if m in user or m == "torch" or m.startswith("torch."))
print("LEAKED", leaked, "EXIT", code)
"""


@pytest.mark.parametrize("extra", [
    [],
    ["--assume-compiled", "forward"],
    ["--entry", "pkg.model:helper", "--entry", "pkg/model.py:Net.forward"],
])
def test_static_pass_imports_neither_user_code_nor_torch(tmp_path: Path, extra: list[str]) -> None:
    root = _project(tmp_path)
    proc = subprocess.run([sys.executable, "-c", STATIC_PROBE, "check", ".", "--no-cache", "--jobs", "2", *extra],
                          cwd=root, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(root)})
    assert "LEAKED [] EXIT" in proc.stdout, proc.stdout + proc.stderr
    assert "in 6 files" in proc.stdout  # the project was really analyzed
    assert "Traceback" not in proc.stderr
    assert _markers(root) == []


def test_runtime_runs_only_when_asked(tmp_path: Path) -> None:
    """A configured harness is not a request: only --runtime runs it."""
    root = _project(tmp_path)
    quiet = subprocess.run([sys.executable, "-m", "vtlint", "check", ".", "--no-cache"], cwd=root,
                           capture_output=True, text=True, timeout=120)
    assert quiet.returncode in (0, 1) and _markers(root) == []
    asked = subprocess.run([sys.executable, "-m", "vtlint", "check", ".", "--no-cache", "--runtime",
                            "--runtime-command", f"{sys.executable} harness.py"], cwd=root,
                           capture_output=True, text=True, timeout=120)
    assert "Traceback" not in asked.stderr
    assert _markers(root) == ["IMPORTED-__main__"]  # the harness ran, and nothing else


@pytest.mark.asyncio
async def test_language_server_never_imports_user_code(tmp_path: Path) -> None:
    root = _project(tmp_path)
    async with lsp_session(root, {"trusted": True}) as s:
        for rel in ("pkg/model.py", "run_me.py", "pkg/__init__.py"):
            uri = s.open(rel)
            await s.wait_diagnostics(uri)
        await s.command("vtlint.serverStatus")
    assert _markers(root) == []


def test_the_untrusted_workspace_test_exists() -> None:
    """The editor runs only the static pass in an untrusted workspace: the LSP suite tests it."""
    text = (Path(__file__).parents[1] / "lsp" / "test_server.py").read_text(encoding="utf-8")
    assert "def test_runtime_confirmation_is_refused_in_an_untrusted_workspace" in text
