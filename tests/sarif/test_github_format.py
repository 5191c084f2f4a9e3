"""`--format github`: workflow-command annotations, escaped as the Actions runner parses them."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from sarif_support import MODULE, Sample

from vtlint.check import CheckResult
from vtlint.findings import Finding, Kind, Level, Location, Notification
from vtlint.report.github import annotation, escape_data, escape_property, render_github


def _parse(line: str) -> tuple[str, dict[str, str], str]:
    """Split a workflow command as the runner does, then unescape."""
    assert line.startswith("::")
    head, _, data = line[2:].partition("::")
    command, _, raw = head.partition(" ")
    props = dict(p.split("=", 1) for p in raw.split(",")) if raw else {}

    def unescape(text: str) -> str:
        for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
            text = text.replace(code, char)
        return text

    return command, {k: unescape(v) for k, v in props.items()}, unescape(data)


def test_escaping_round_trips() -> None:
    nasty = "a%b,c:d\r\ne"
    assert escape_data(nasty) == "a%25b,c:d%0D%0Ae"
    assert escape_property(nasty) == "a%25b%2Cc%3Ad%0D%0Ae"
    finding = Finding("VTL101", Kind.BAKED_CONSTANT, Level.WARNING, Location("dir, x/a:b%.py", 3, 5, 3, 9),
                      "L['n'] baked\nsecond line 100%")
    command, props, message = _parse(annotation(finding))
    assert command == "warning"
    assert props == {"file": "dir, x/a:b%.py", "line": "3", "col": "5", "endLine": "3", "endColumn": "9", "title": "VTL101"}
    assert message == "VTL101 L['n'] baked\nsecond line 100% [predicted]"


def test_multi_line_spans_have_no_columns() -> None:
    finding = Finding("VTL001", Kind.SYNTAX_ERROR, Level.ERROR, Location("a.py", 2, 4, 5, 1), "SyntaxError")
    _, props, message = _parse(annotation(finding))
    assert props == {"file": "a.py", "line": "2", "endLine": "5", "title": "VTL001"}
    assert message == "VTL001 SyntaxError"  # no evidence for facts about the run


def test_related_places_and_fix_are_listed(sample: Sample) -> None:
    baked = next(f for f in sample.result.findings if f.code == "VTL101")
    _, _, message = _parse(annotation(baked))
    assert message.splitlines()[1:] == [f"n changes to 4 here ({MODULE}:16)", f"compiled entry f ({MODULE}:9)",
                                        "fix: Pass n as a tensor"]


def test_errors_first_notes_hidden_and_notifications(sample: Sample) -> None:
    note = Finding("VTL301", Kind.INLINED_CALL, Level.NOTE, Location(MODULE, 10, 9), "helper is inlined")
    result = CheckResult(**{**sample.result.__dict__, "findings": [*sample.result.findings, note], "missing": ["gone.py"]})
    lines = render_github(result, root=sample.root).splitlines()
    commands = [_parse(line)[0] for line in lines]
    assert commands == ["error", "error", "warning", "error", "warning", "error"]
    assert _parse(lines[4])[1] == {"file": MODULE, "line": "3", "title": "vtlint parse-error"}
    assert _parse(lines[-1])[2] == "gone.py: no such file or directory"
    assert len(render_github(result, show_notes=True, root=sample.root).splitlines()) == len(lines) + 1


def test_paths_are_relative_to_the_repository(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    project = tmp_path / "pkg"
    project.mkdir()
    result = CheckResult(
        findings=[Finding("VTL001", Kind.SYNTAX_ERROR, Level.ERROR, Location("m.py", 1, 1), "SyntaxError")],
        notifications=[Notification("io-error", "unreadable", Level.WARNING, Location("n.py", 1, 1))],
    )
    lines = render_github(result, root=project).splitlines()
    assert [_parse(line)[1]["file"] for line in lines] == ["pkg/m.py", "pkg/n.py"]


def test_cli_github_format(run_cli, tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text("[tool.vtlint]\n")
    (tmp_path / "bad, file.py").write_text("def f(x:\n    return x\n")
    result = run_cli("check", ".", "--no-cache", "--format", "github", cwd=tmp_path)
    assert result.exit_code == 1
    command, props, message = _parse(result.output.splitlines()[0])
    assert (command, props["file"], props["title"]) == ("error", "bad, file.py", "VTL001")
    assert message.startswith("VTL001 SyntaxError")


@given(path=st.text(min_size=1, max_size=20), message=st.text(max_size=40))
def test_any_path_and_message_round_trip(path: str, message: str) -> None:
    finding = Finding("VTL001", Kind.SYNTAX_ERROR, Level.ERROR, Location(path, 1, 1), message)
    line = annotation(finding)
    assert "\n" not in line and "\r" not in line
    _, props, text = _parse(line)
    assert props["file"] == path and text == f"VTL001 {message}"
