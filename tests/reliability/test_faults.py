"""Faults of the runtime step seen from the CLI (the runtime tests cover exit
codes, SIGSEGV, timeouts and a cut-off trace at the step level): a harness
killed by SIGKILL, one that floods its output, a trace with junk in it, and a
full disk when the facts are saved. Each: a notification, the static findings
and the facts parsed so far still reported, temporary files gone, no zombies."""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from vtlint.runtime.step import run_step

HERE = Path(__file__).parent
EXAMPLES = HERE.parents[1] / "examples"
CAPTURED = HERE.parent / "runtime" / "data" / "examples" / "dedicated_log_torch_trace_fixture.log"


def _relocate_log():
    spec = importlib.util.spec_from_file_location("trace_data", HERE.parent / "runtime" / "trace_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.relocate_log


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The examples under a temporary root, the captured trace moved there, and a
    private temp dir so leftovers are visible."""
    root = tmp_path / "project"
    shutil.copytree(EXAMPLES, root / "examples")
    (root / "examples" / "trace.log").write_text(_relocate_log()(CAPTURED.read_text(encoding="utf-8"), "/project", str(root)))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.chdir(root)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    return root


def _harness(root: Path, action: str, *extra: str) -> str:
    """The command as a user writes it: relative to the project root, `python` from PATH."""
    shutil.copy(HERE / "misbehave.py", root / "examples" / "misbehave.py")  # examples/ is the config root
    return shlex.join(["python", "misbehave.py", "trace.log", action, *extra])


def _check(run_cli, root: Path, action: str, *extra: str) -> tuple[int, dict]:
    result = run_cli("check", "examples", "--no-cache", "--format", "json", "--runtime-command",
                     _harness(root, action, *extra), "--runtime-timeout", "120")
    assert "Traceback" not in result.output
    return result.exit_code, json.loads(result.stdout)


def _zombies() -> list[int]:
    """Our own children that exited and were never reaped."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(os.getpid()) and fields.get("State", "").startswith("Z"):
            found.append(int(status.parent.name))
    return found


def _sites(report: dict) -> set[tuple[str, str, int]]:
    return {(f["code"], f["path"], f["line"]) for f in report["findings"]}


def _confirmed(report: dict) -> list[dict]:
    return [f for f in report["findings"] if f["evidence"] != "predicted"]


def test_harness_killed_by_sigkill(run_cli, project: Path) -> None:
    code, report = _check(run_cli, project, "sigkill")
    assert code == 1
    faults = [n["message"] for n in report["notifications"] if n["kind"] == "runtime-fault"]
    assert any("killed by SIGKILL" in f for f in faults), faults
    assert _confirmed(report), "the facts traced before the kill were lost"
    static = json.loads(run_cli("check", "examples", "--no-cache", "--format", "json").stdout)
    assert _sites(static) <= _sites(report), "static findings were dropped"
    assert os.listdir(tempfile.tempdir) == [] and _zombies() == []


def test_junk_in_the_trace_keeps_the_intact_entries(run_cli, project: Path) -> None:
    code, report = _check(run_cli, project, "garbage")
    assert code == 1
    faults = [n["message"] for n in report["notifications"] if n["kind"] == "runtime-fault"]
    assert any("damaged or cut off" in f for f in faults), faults
    assert _confirmed(report)
    assert os.listdir(tempfile.tempdir) == []


def _peak_rss_mib(project: Path, action: str, *extra: str) -> int:
    """vtlint's own peak RSS (not the harness's) over one runtime step, in a fresh process."""
    probe = (
        "import resource, sys\nfrom pathlib import Path\nfrom vtlint.runtime.step import run_step\n"
        f"facts = run_step({_harness(project, action, *extra)!r}, Path('.'), timeout=300)\n"
        "assert facts.events, 'facts lost'\n"
        "assert all(len(n.message) < 20_000 for n in facts.notifications)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n"
    )
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), "TMPDIR": tempfile.tempdir}
    proc = subprocess.run([sys.executable, "-c", probe], cwd=project / "examples", capture_output=True, text=True,
                          timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    return int(proc.stdout.split()[-1])


def test_a_flooding_harness_does_not_grow_vtlint(project: Path) -> None:
    """300 MB of harness output goes to a file and only its tail is read back: vtlint's
    peak RSS grows by far less than that over a quiet run of the same harness."""
    quiet = _peak_rss_mib(project, "ok")
    flood = _peak_rss_mib(project, "flood", "300")
    assert flood - quiet < 60, (quiet, flood)
    assert os.listdir(tempfile.tempdir) == []


def test_full_disk_when_saving_facts(run_cli, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_space(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    (project / "facts.json").write_text("old\n")
    monkeypatch.setattr("os.fsync", no_space)
    result = run_cli("trace", "--output", "facts.json", "--", *shlex.split(_harness(project, "ok")))
    assert result.exit_code == 2 and "No space left on device" in result.output
    assert "Traceback" not in result.output
    assert (project / "facts.json").read_text() == "old\n"
    assert not [p for p in project.iterdir() if p.name.startswith(".facts.json")]
    assert os.listdir(tempfile.tempdir) == []


def test_full_disk_when_writing_the_report(run_cli, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`check --output`: the error names the file and the cause (exit 2), the previous
    report is intact and no temporary file is left beside it."""
    def no_space(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    (project / "report.json").write_text("previous report\n")
    monkeypatch.setattr("os.fsync", no_space)
    result = run_cli("check", "examples", "--no-cache", "--format", "json", "--output", "report.json")
    assert result.exit_code == 2 and "cannot write report.json: No space left on device" in result.output
    assert "Traceback" not in result.output
    assert (project / "report.json").read_text() == "previous report\n"
    assert not [p for p in project.iterdir() if p.name.startswith(".report.json")]


def test_reports_never_carry_the_machine_paths_or_environment(run_cli, project: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness prints $HOME and its private trace path; a secret sits in the
    environment. Neither the JSON nor the SARIF of the run may repeat them."""
    monkeypatch.setenv("HOME", str(project.parent / "home-of-someone"))
    monkeypatch.setenv("VTLINT_TEST_SECRET", "s3cr3t-token-value")
    for fmt in ("json", "sarif"):
        result = run_cli("check", "examples", "--no-cache", "--format", fmt,
                         "--runtime-command", _harness(project, "sigkill"))
        text = result.stdout
        if fmt == "sarif":  # the one absolute path by design: %SRCROOT%'s base, where GitHub resolves URIs
            log = json.loads(text)
            for run in log["runs"]:
                run.pop("originalUriBaseIds", None)
            text = json.dumps(log)
        assert "runtime-fault" in text or "killed by SIGKILL" in text
        for private in (str(project.parent), tempfile.tempdir, "home-of-someone", "s3cr3t-token-value"):
            assert private not in text, (fmt, private)


def test_step_level_sigkill_leaves_nothing_behind(project: Path) -> None:
    facts = run_step(_harness(project, "sigkill"), project / "examples", timeout=60)
    assert facts.harness["exit_code"] == -9
    assert facts.events
    assert os.listdir(tempfile.tempdir) == [] and _zombies() == []


def test_reports_name_installed_files_inside_site_packages(run_cli, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk inlines an installed package (its `hasattr` makes a note naming the file):
    reports show `<site-packages>/fakelib/__init__.py`, never the virtualenv's path."""
    site = tmp_path / "venv" / "lib" / "site-packages"
    (site / "fakelib").mkdir(parents=True)
    (site / "fakelib" / "__init__.py").write_text("def scale(x, cfg):\n    if hasattr(cfg, 'k'):\n"
                                                  "        return x * 2\n    return x\n")
    monkeypatch.syspath_prepend(str(site))
    root = tmp_path / "project"
    root.mkdir()
    (root / "train.py").write_text("import torch\nimport fakelib\n\n\n@torch.compile\ndef step(x, cfg):\n"
                                   "    return fakelib.scale(x, cfg)\n")
    for fmt in ("json", "sarif", "text"):
        result = run_cli("check", ".", "--no-cache", "--format", fmt, "--show-notes", cwd=root)
        shown = result.stdout + result.stderr
        assert "<site-packages>/fakelib/__init__.py" in shown, (fmt, shown)
        assert str(tmp_path) not in shown.replace(str(root), "."), fmt
