"""The command line: exit codes, formats, selection, output files, bad input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from vtlint.analyzer.files import SourceFile

BROKEN = "def f(x:\n    return x\n"


def test_version(run_cli) -> None:
    result = run_cli("--version")
    assert result.exit_code == 0
    assert result.output.startswith("vtlint ")


def test_clean_project_exits_0(run_cli, project) -> None:
    root = project({"ok.py": "x = 1\n"})
    result = run_cli("check", root, "--no-cache")
    assert result.exit_code == 0, result.output
    assert "All checks passed in 1 file." in result.output


def test_bare_paths_mean_check(run_cli, project) -> None:
    root = project({"bad.py": BROKEN})
    result = run_cli(root / "bad.py", "--no-cache")
    assert result.exit_code == 1
    assert "VTL001" in result.output


def test_syntax_error_is_a_located_finding_and_others_still_analyzed(run_cli, project) -> None:
    root = project({"a_bad.py": BROKEN, "b_ok.py": "y = 2\n"})
    result = run_cli("check", root, "--no-cache", "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["files_analyzed"] == 2
    [finding] = report["findings"]
    assert finding["code"] == "VTL001" and finding["path"] == "a_bad.py"
    assert finding["line"] >= 1 and "SyntaxError" in finding["message"]


def test_missing_path_is_exit_2_and_the_rest_is_still_analyzed(run_cli, project) -> None:
    root = project({"bad.py": BROKEN})
    result = run_cli("check", root / "nope", root / "bad.py", "--no-cache")
    assert result.exit_code == 2
    assert "nope: no such file or directory" in result.output
    assert "VTL001" in result.output
    assert "Traceback" not in result.output


def test_empty_directory(run_cli, tmp_path: Path) -> None:
    """No file analyzed is not an all-clear: exit 2, unless --allow-empty."""
    (tmp_path / "empty").mkdir()
    result = run_cli("check", tmp_path / "empty", "--no-cache")
    assert result.exit_code == 2
    assert "no Python files" in result.output and "All checks passed" not in result.output
    assert run_cli("check", tmp_path / "empty", "--no-cache", "--allow-empty").exit_code == 0


def test_invalid_utf8_and_coding_cookie(run_cli, tmp_path: Path) -> None:
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\nname = '\xe9t\xe9'\n")
    (tmp_path / "garbage.py").write_bytes(b"x = 1\ny = '\xff\xfe'\n")
    result = run_cli("check", tmp_path, "--no-cache", "--format", "json")
    report = json.loads(result.output)
    assert [(f["code"], f["path"], f["line"]) for f in report["findings"]] == [("VTL002", "garbage.py", 2)]
    assert "not valid utf-8" in report["findings"][0]["message"]
    assert result.exit_code == 1


def test_unreadable_file(run_cli, tmp_path: Path, unreadable: Callable[[str], None]) -> None:
    (tmp_path / "secret.py").write_text("x = 1\n")
    (tmp_path / "fine.py").write_text(BROKEN)
    unreadable("secret.py")
    result = run_cli("check", tmp_path, "--no-cache", "--format", "json")
    codes = sorted((f["code"], f["path"]) for f in json.loads(result.output)["findings"])
    assert codes == [("VTL001", "fine.py"), ("VTL002", "secret.py")]


def test_select_ignore_and_exit_zero(run_cli, project) -> None:
    root = project({"bad.py": BROKEN})
    assert run_cli("check", root, "--no-cache", "--ignore", "VTL0").exit_code == 0
    assert run_cli("check", root, "--no-cache", "--select", "VTL9").exit_code == 0
    assert run_cli("check", root, "--no-cache", "--select", "VTL9", "--extend-select", "VTL001").exit_code == 1
    assert run_cli("check", root, "--no-cache", "--exit-zero").exit_code == 0
    assert run_cli("check", root, "--no-cache", "--fail-level", "error").exit_code == 1


def test_unknown_selector_is_a_usage_error(run_cli, project) -> None:
    root = project({"ok.py": "x = 1\n"})
    result = run_cli("check", root, "--select", "XYZ9")
    assert result.exit_code == 2
    assert "unknown rule selector(s): XYZ9" in result.output


def test_config_error_exit_2_names_file_and_key(run_cli, project) -> None:
    root = project({"pyproject.toml": "[tool.vtlint]\nselekt = ['VTL']\n", "ok.py": "x = 1\n"})
    result = run_cli("check", root)
    assert result.exit_code == 2
    assert "pyproject.toml" in result.output and "unknown key 'selekt'" in result.output
    assert "Traceback" not in result.output


def test_config_from_pyproject_applies(run_cli, project) -> None:
    root = project({"pyproject.toml": "[tool.vtlint]\nignore = ['VTL001']\n", "bad.py": BROKEN})
    assert run_cli("check", root, "--no-cache").exit_code == 0


def test_per_file_ignores(run_cli, project) -> None:
    root = project({"pyproject.toml": "[tool.vtlint]\n[tool.vtlint.per-file-ignores]\n'gen/*' = ['VTL0']\n",
                    "gen/bad.py": BROKEN, "bad.py": BROKEN})
    report = json.loads(run_cli("check", root, "--no-cache", "--format", "json").output)
    assert [f["path"] for f in report["findings"]] == ["bad.py"]


def test_exclude_and_gitignore(run_cli, project) -> None:
    root = project({
        "pyproject.toml": "[tool.vtlint]\nextend-exclude = ['generated']\n",
        ".gitignore": "scratch/\n*_tmp.py\n",
        "generated/bad.py": BROKEN, "scratch/bad.py": BROKEN, "x_tmp.py": BROKEN, "kept.py": BROKEN,
        ".venv/lib/bad.py": BROKEN,
    })
    report = json.loads(run_cli("check", root, "--no-cache", "--format", "json").output)
    assert [f["path"] for f in report["findings"]] == ["kept.py"]
    assert report["files_analyzed"] == 1


def test_noqa_suppresses_in_the_cli(run_cli, project) -> None:
    root = project({"bad.py": "# vtlint: noqa: VTL001\ndef f(x:\n    return x\n"})
    assert run_cli("check", root, "--no-cache").exit_code == 0


def test_output_file_is_written_atomically(run_cli, project) -> None:
    root = project({"bad.py": BROKEN})
    out = root / "report.json"
    result = run_cli("check", root / "bad.py", "--no-cache", "--format", "json", "--output", out)
    assert result.exit_code == 1
    assert json.loads(out.read_text())["findings"][0]["code"] == "VTL001"
    assert not [p for p in root.iterdir() if p.name.endswith(".tmp")]


def test_unwritable_output_keeps_the_old_report(run_cli, project, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project({"bad.py": BROKEN, "report.json": "old\n"})

    def fail(*_args: object, **_kw: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", fail)
    result = run_cli("check", root / "bad.py", "--no-cache", "--format", "json", "--output", root / "report.json")
    assert result.exit_code == 2
    assert "No space left on device" in result.output
    assert (root / "report.json").read_text() == "old\n"
    assert sorted(p.name for p in root.iterdir()) == ["bad.py", "report.json"]


def test_output_into_a_missing_folder_is_exit_2(run_cli, project) -> None:
    root = project({"bad.py": BROKEN})
    result = run_cli("check", root, "--no-cache", "--format", "json", "--output", root / "no" / "r.json")
    assert result.exit_code == 2
    assert "cannot write" in result.output


def test_github_format(run_cli, project) -> None:
    root = project({"bad.py": BROKEN})
    result = run_cli("check", root, "--no-cache", "--format", "github")
    assert result.output.startswith("::error file=bad.py,line=")
    assert "title=VTL001::VTL001 SyntaxError" in result.output


def test_text_is_plain_when_piped_and_statistics(run_cli, project) -> None:
    root = project({"a.py": BROKEN, "b.py": BROKEN})
    result = run_cli("check", root, "--no-cache", "--statistics")
    assert "\x1b[" not in result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("a.py:") and ": VTL001 SyntaxError" in lines[0]
    assert "Found 2 findings (2 syntax-error) in 2 files." in result.output
    assert "    2  VTL001    syntax-error" in result.output


def test_color_always(run_cli, project) -> None:
    root = project({"a.py": BROKEN})
    assert "\x1b[" in run_cli("check", root, "--no-cache", "--color", "always").output


def test_quiet_prints_findings_only(run_cli, project) -> None:
    root = project({"a.py": BROKEN})
    result = run_cli("check", root, "--no-cache", "-q")
    assert result.output.count("\n") == 1 and "Found" not in result.output


def test_rules_and_rule(run_cli) -> None:
    listing = run_cli("rules")
    assert listing.exit_code == 0 and "VTL001" in listing.output and "syntax-error" in listing.output
    rows = json.loads(run_cli("rules", "--format", "json").output)
    assert {"code", "name", "level", "summary", "url"} <= set(rows[0])
    doc = run_cli("rule", "vtl001")
    assert doc.exit_code == 0 and doc.output.startswith("# VTL001 syntax-error")
    assert "## How to fix" in doc.output
    missing = run_cli("rule", "VTL999")
    assert missing.exit_code == 2 and "unknown rule code" in missing.output


def test_internal_errors_are_short_and_exit_2(run_cli, project, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project({"a.py": "x = 1\n"})

    def boom(*_a: object, **_k: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr("vtlint.cli.run_check", boom)
    monkeypatch.delenv("VTLINT_DEBUG", raising=False)
    result = run_cli("check", root)
    assert result.exit_code == 2
    assert "internal error: RuntimeError: kaboom" in result.output
    assert "Traceback" not in result.output


def test_module_entry_point() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "vtlint", "--version"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.startswith("vtlint ")
    assert "torch" not in SourceFile.__module__


_MODULE_WITH_DEFAULT = "import torch\n\nclass D(torch.nn.Module):\n    def forward(self, x, n=3):\n        return x * n\n"


def test_entry_path_is_read_from_the_current_folder(run_cli, project) -> None:
    root = project({"pyproject.toml": "[tool.vtlint]\n", "sub/model.py": _MODULE_WITH_DEFAULT})
    result = run_cli("check", ".", "--entry", "model.py:D.forward", "--format", "json", cwd=root / "sub")
    report = json.loads(result.output)
    assert [f["source"] for f in report["findings"]] == ["L['n']"]


def test_an_entry_that_matches_nothing_is_an_error_not_an_all_clear(run_cli, project) -> None:
    root = project({"pyproject.toml": "[tool.vtlint]\n", "sub/model.py": _MODULE_WITH_DEFAULT})
    result = run_cli("check", ".", "--entry", "model.py:E.forward", cwd=root / "sub")
    assert result.exit_code == 2
    assert "--entry sub/model.py:E.forward: no such function in the project" in result.output
    assert "All checks passed" not in result.output
