"""Every path a report shows can be opened: relative to the project root, or
`<site-packages>/pkg/...` for an installed package (in SARIF: relative to its own
URI base, SITE_PACKAGES), never glued to the folder it was reached from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vtlint.report.shareable import shorten

MODULE = "import torch\nfrom torch import nn\n\n\nclass Block(nn.Module):\n    def forward(self, x):\n        print(x)\n        return x\n"
SHOWN = "<site-packages>/fakelib/mod.py"


@pytest.mark.parametrize("text, shown", [
    (".venv/lib/python3.11/site-packages/transformers/a.py", "<site-packages>/transformers/a.py"),
    ("../env/lib/site-packages/x.py:3", "<site-packages>/x.py:3"),
    ("calls f (/opt/env/lib/python3.11/site-packages/x/y.py:3)", "calls f (<site-packages>/x/y.py:3)"),
    ("at `C:\\env\\Lib\\site-packages\\x.py`", "at `<site-packages>/x.py`"),
    ("<site-packages>/x.py", "<site-packages>/x.py"),
    ("mysite-packages/x.py", "mysite-packages/x.py"),
])
def test_shorten_takes_the_whole_prefix(text: str, shown: str) -> None:
    assert shorten(text) == shown


def test_every_entry_a_finding_lists_is_shortened() -> None:
    from vtlint.check import CheckResult
    from vtlint.findings import Finding, Kind, Level, Location
    from vtlint.report.shareable import shareable

    entries = ("../env/lib/site-packages/m.py:A.forward", "/opt/env/lib/site-packages/m.py:B.forward")
    finding = Finding("VTL202", Kind.GRAPH_BREAK, Level.WARNING, Location("../env/lib/site-packages/m.py", 3), "x",
                      entry=entries[0], entries=entries)
    [shown] = shareable(CheckResult(findings=[finding])).findings
    assert shown.entries == ("<site-packages>/m.py:A.forward", "<site-packages>/m.py:B.forward")


def _installed(base: Path) -> Path:
    package = base / "lib" / "python3.11" / "site-packages" / "fakelib"
    package.mkdir(parents=True)
    (package / "mod.py").write_text(MODULE)
    return package


def _assert_readable(output: str) -> None:
    assert SHOWN in output, output
    for line in output.splitlines():
        if "site-packages" in line:
            assert "<site-packages>/" in line and "%3C" not in line, line
            before = line.split("<site-packages>")[0]
            assert not before or before[-1] in " =\"'`(:", line  # a token of its own


def test_a_virtualenv_inside_the_project_run_from_above(run_cli, tmp_path: Path) -> None:
    """Observation 2: `vtlint/.venv<site-packages>/...` in text, `.venv%3Csite-packages%3E/...` in SARIF."""
    root = tmp_path / "vtlint"
    package = _installed(root / ".venv")
    (root / "pyproject.toml").write_text("[tool.vtlint]\nexclude = []\n")
    for fmt in ("text", "json", "github"):
        result = run_cli("check", package, "--assume-compiled", "forward", "--format", fmt, cwd=tmp_path)
        assert result.exit_code == 1, result.output
        _assert_readable(result.output)
    sarif = json.loads(run_cli("check", package, "--assume-compiled", "forward", "--format", "sarif",
                               cwd=tmp_path).output)
    run = sarif["runs"][0]
    artifact = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": "fakelib/mod.py", "uriBaseId": "SITE_PACKAGES"}
    assert "uri" not in run["originalUriBaseIds"]["SITE_PACKAGES"]  # this machine's virtualenv is nobody's
    assert "workingDirectory" not in run["invocations"][0]


def test_an_installed_file_outside_the_config_folder(run_cli, tmp_path: Path) -> None:
    """Observation 2: with `--config cfg/pyproject.toml`, `cfg/..<site-packages>/...`."""
    package = _installed(tmp_path / "env")
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "pyproject.toml").write_text("[tool.vtlint]\nexclude = []\n")
    result = run_cli("check", package, "--assume-compiled", "forward", "--config", "cfg/pyproject.toml", cwd=tmp_path)
    assert result.exit_code == 1, result.output
    _assert_readable(result.output)
    assert ".." not in result.output


def test_the_runtime_summary_names_an_installed_entry_inside_site_packages(run_cli, tmp_path: Path) -> None:
    """An installed file checked explicitly, compiled by the harness: the runtime summary
    line said `../env/lib/python3.11/site-packages/fakelib/mod.py:Block.forward`."""
    package = _installed(tmp_path / "env")
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.vtlint]\n")
    entry = "../env/lib/python3.11/site-packages/fakelib/mod.py:Block.forward"
    facts = {"format": "vtlint-runtime-facts", "version": 1, "torch_version": "2.13.0+cpu", "root": str(root),
             "harness": {"command": "python harness.py", "exit_code": 0, "duration_s": 1.0},
             "coverage": [{"entry": entry, "compiles": 1, "frames": {"wrapper": 1}, "graph_count": 1,
                           "via": {"wrapper": "deco/utils.py"}}],
             "events": [], "unlinked": [{"code": "g", "file": "../env/lib/python3.11/site-packages/other/x.py",
                                         "why": "no project function", "compiles": 1}]}
    (root / "facts.json").write_text(json.dumps(facts))
    result = run_cli("check", ".", package / "mod.py", "--runtime-facts", "facts.json", "--exit-zero", cwd=root)
    assert "  <site-packages>/fakelib/mod.py:Block.forward: 1 compile, 1 graph (compiled as `wrapper` of deco/utils.py)" \
        in result.output, result.output
    assert "not linked: `g` of <site-packages>/other/x.py" in result.output
    assert "../env" not in result.output
    _assert_readable(result.output)
    report = json.loads(run_cli("check", ".", package / "mod.py", "--runtime-facts", "facts.json", "--exit-zero",
                                "--format", "json", cwd=root).output)
    assert [e["entry"] for e in report["runtime"]["entries"]] == ["<site-packages>/fakelib/mod.py:Block.forward"]
