"""Findings -> LSP: ranges in UTF-16 units, severity, related information, hover
Markdown, code actions; and the project's dependency map. No server needed."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from vtlint.check import CheckResult
from vtlint.config import Config
from vtlint.findings import Edit, Evidence, Finding, Fix, Kind, Level, Location, Related
from vtlint.lsp import convert
from vtlint.lsp.project import Project
from vtlint.lsp.settings import EditorSettings

SEED = "def f(x, n):\n    return x * n  # é\n"


def baked(**changes: object) -> Finding:
    finding = Finding(
        code="VTL101",
        kind=Kind.BAKED_CONSTANT,
        level=Level.WARNING,
        location=Location("pkg/seed.py", 2, 16, 2, 17),
        message="`n` is baked into the graph as a ConstantVariable",
        source="L['n']",
        variable_tracker="ConstantVariable",
        guard="EQUALS_MATCH: L['n'] == 3",
        entry="pkg/seed.py:f",
        chain=(Related(Location("pkg/main.py", 7, 5), "calls f"),),
        related=(Related(Location("pkg/main.py", 9, 5), "n changes here"),),
    )
    return finding.with_(**changes)


def lines_of(tmp_path: Path, text: str = SEED) -> convert.LinesOf:
    return convert.LinesOf(tmp_path, {"pkg/seed.py": text, "pkg/main.py": "\n" * 12})


def test_range_is_zero_based_and_counts_utf16_units(tmp_path: Path) -> None:
    text = "s = '𝔘'; n = 3\n"  # a character outside the BMP is two UTF-16 units
    found = Location("pkg/seed.py", 1, 10, 1, 11)  # `n`, code-point columns
    rng = lines_of(tmp_path, text).range(found)
    assert (rng.start.line, rng.start.character, rng.end.character) == (0, 10, 11)


def test_an_ascii_range_is_the_codecs_and_one_past_the_end_clamps_as_the_codec_does(tmp_path: Path) -> None:
    text = "def f(x, n):\n    return x * n\n"
    codec = convert.LinesOf(tmp_path, {}).codec
    lines = text.splitlines(keepends=True)
    for where in (Location("pkg/seed.py", 2, 12, 2, 17), Location("pkg/seed.py", 1, 1, 3, 1)):
        expected = codec.range_to_client_units(lines, convert.server_range(where, lines))
        assert lines_of(tmp_path, text).range(where) == expected


def test_point_location_spans_the_rest_of_the_code_on_its_line(tmp_path: Path) -> None:
    rng = lines_of(tmp_path).range(Location("pkg/seed.py", 2, 5))
    assert (rng.start.character, rng.end.character) == (4, len("    return x * n  # é"))


def test_diagnostic_carries_code_link_severity_related_and_the_finding(tmp_path: Path) -> None:
    diag = convert.to_diagnostic(baked(), None, tmp_path, lines_of(tmp_path), {})
    assert diag.code == "VTL101" and diag.source == "vtlint"
    assert diag.severity == types.DiagnosticSeverity.Warning
    messages = [r.message for r in diag.related_information or []]
    assert messages == ["n changes here", "inline chain: calls f"]
    assert diag.related_information[0].location.uri == (tmp_path / "pkg/main.py").as_uri()
    assert diag.message == baked().message and diag.data is None  # code actions look findings up server-side


def test_graph_break_links_its_registry_page_and_evidence_is_spelled_out(tmp_path: Path) -> None:
    finding = baked(code="VTL201", kind=Kind.GRAPH_BREAK, gb_id="GB0059", evidence=Evidence.CONFIRMED)
    diag = convert.to_diagnostic(finding, None, tmp_path, lines_of(tmp_path), {})
    assert diag.code_description.href.endswith("/gb/gb0059.html")
    assert diag.message.endswith("(confirmed at runtime)")


def test_severity_overrides_longest_prefix_wins() -> None:
    overrides = {"VTL": "hint", "VTL1": "error"}
    assert convert.severity_for(baked(), overrides) == types.DiagnosticSeverity.Error
    assert convert.severity_for(baked(code="VTL301"), overrides) == types.DiagnosticSeverity.Hint
    assert convert.severity_for(baked(level=Level.NOTE), {}) == types.DiagnosticSeverity.Information


def test_hover_speaks_dynamo(tmp_path: Path) -> None:
    text = convert.hover_markdown(baked(), None)
    for expected in ("- VariableTracker: `ConstantVariable`", "- Source: `L['n']`",
                     "- Guard: `EQUALS_MATCH: L['n'] == 3`", "1. `pkg/main.py:7` calls f", "Evidence: predicted"):
        assert expected in text


def test_a_package_frames_finding_is_on_the_users_line_and_its_hover_links_the_package(tmp_path: Path) -> None:
    """Reported at the script's call (report/attribution.py): the package's place is related information
    and, in the hover, a link the editor opens (an installed file is named by its absolute path)."""
    model = tmp_path / "env" / "lib" / "site-packages" / "pkg" / "modeling.py"
    model.parent.mkdir(parents=True)
    model.write_text("\n" * 20)
    place = Related(Location(model.as_posix(), 17, 13), "Block.forward")
    finding = baked(code="VTL202", kind=Kind.GRAPH_BREAK, gb_id="GB0059", location=Location("pkg/main.py", 9),
                    library=(place,), related=(),
                    chain=(Related(Location(model.as_posix(), 30, 9), "calls Block.forward"),))
    diag = convert.to_diagnostic(finding, None, tmp_path, lines_of(tmp_path), {})
    assert diag.range.start.line == 8
    info = diag.related_information or []
    assert [i.message for i in info] == ["where Dynamo saw it: Block.forward", "inline chain: calls Block.forward"]
    assert info[0].location.uri == model.as_uri() and info[0].location.range.start.line == 16
    text = convert.hover_markdown(finding, None)
    assert f"- [{model.as_posix()}:17]({model.as_uri()}#L17) Block.forward" in text
    assert f"1. [{model.as_posix()}:30]({model.as_uri()}#L30) calls Block.forward" in text


def test_the_hover_of_grouped_constants_lists_each_with_its_place(tmp_path: Path) -> None:
    place = Related(Location("/env/lib/site-packages/pkg/m.py", 7), "Block.forward")
    members = [baked(location=Location("pkg/main.py", 9), level=Level.NOTE, source=f"L['self'].k{i}",
                     guard=f"EQUALS_MATCH: L['self'].k{i} == {i}", library=(place,)) for i in range(3)]
    [group] = convert.grouped(members)
    text = convert.hover_markdown(group, None)
    assert "3 values (-v or `--select VTL101` lists each):" in text
    assert "- `L['self'].k2` `== 2` in [/env/lib/site-packages/pkg/m.py:7](file:///env/lib/site-packages/pkg/m.py#L7)" \
        " Block.forward" in text


def test_noqa_action_appends_then_merges(tmp_path: Path) -> None:
    uri = (tmp_path / "pkg/seed.py").as_uri()
    action = convert.noqa_action(baked(), uri, lines_of(tmp_path), None)
    [edit] = action.edit.changes[uri]
    assert edit.new_text == "    return x * n  # é  # noqa: VTL101"
    merged = convert.noqa_action(baked(), uri, lines_of(tmp_path, "x\n    return n  # noqa: VTL2\n"), None)
    assert merged.edit.changes[uri][0].new_text == "    return n  # noqa: VTL2, VTL101"
    assert convert.noqa_action(baked(), uri, lines_of(tmp_path, "x\n    n  # noqa: VTL101\n"), None) is None


def test_only_safe_fixes_with_edits_become_code_actions(tmp_path: Path) -> None:
    edit = Edit(Location("pkg/seed.py", 2, 16, 2, 17), "torch.tensor(n)")
    unsafe = baked(fix=Fix("pass n as a tensor", (edit,), safe=False))
    advice = baked(fix=Fix("mark it dynamic", (), safe=True))
    assert convert.fix_action(unsafe, tmp_path, lines_of(tmp_path), None) is None
    assert convert.fix_action(advice, tmp_path, lines_of(tmp_path), None) is None
    safe = convert.fix_action(baked(fix=Fix("pass n as a tensor", (edit,), safe=True)), tmp_path, lines_of(tmp_path), None)
    [text_edit] = safe.edit.changes[(tmp_path / "pkg/seed.py").as_uri()]
    assert (text_edit.range.start.character, text_edit.range.end.character, text_edit.new_text) == (15, 16, "torch.tensor(n)")


def test_project_learns_which_files_entries_reach(tmp_path: Path) -> None:
    project = Project(tmp_path, Config(root=tmp_path))
    in_helper = baked(location=Location("pkg/helpers.py", 3, 5), entry="pkg/main.py:train_step",
                      chain=(Related(Location("pkg/main.py", 10, 5), "calls helper"),))
    project.learn(CheckResult(findings=[in_helper]), {"pkg/main.py", "pkg/helpers.py"})
    assert project.reaches == {"pkg/main.py": {"pkg/main.py", "pkg/helpers.py"}}
    assert project.depends_on("pkg/helpers.py") and not project.depends_on("pkg/other.py")
    # editing the helper alone pulls in the entry file that inlines it
    assert project.related_to({"pkg/helpers.py"}) == {"pkg/helpers.py", "pkg/main.py"}
    project.learn(CheckResult(), {"pkg/main.py"})  # the inlining call was removed
    assert project.related_to({"pkg/helpers.py"}) == {"pkg/helpers.py"}


def test_editor_settings_layer_over_the_project_config(tmp_path: Path) -> None:
    settings = EditorSettings.from_client({"settings": {"select": "vtl1, VTL2", "ignore": ["vtl201"],
                                                        "runtime": {"command": "python h.py"}}})
    config = settings.apply(Config(root=tmp_path, ignore=("VTL3",)))
    assert config.select == ("VTL1", "VTL2") and config.ignore == ("VTL3", "VTL201")
    assert config.runtime.command == "python h.py"
    assert EditorSettings.from_client(None) == EditorSettings()


def test_project_learns_inlined_callees_from_the_predicted_trace(tmp_path: Path) -> None:
    from vtlint.trace import Action, Event

    inline = Event(Action.INLINE, Location("main.py", 8, 12), "main.py:train_step", callee="helpers.py:scale")
    library = Event(Action.INLINE, Location("main.py", 9, 12), "main.py:train_step", callee="torch.nn.functional.relu")
    project = Project(tmp_path, Config(root=tmp_path))
    project.learn(CheckResult(predicted=[inline, library]), {"main.py"})
    assert project.reaches == {"main.py": {"main.py", "helpers.py"}}
    assert project.depends_on("helpers.py")


def test_hover_ranks_the_finding_whose_source_names_the_hovered_word() -> None:
    assert convert.names(baked(), "n")
    assert convert.names(baked(source="L['cfg'].scale"), "scale")
    assert convert.names(baked(source="L['items'][0]"), "items")
    assert not convert.names(baked(source="L['cfg'].scale"), "cfg")
    assert not convert.names(baked(source=None), "n")


def test_uri_for_is_absolute_without_dot_dot(tmp_path: Path) -> None:
    """An installed file reached from a project one floor down: an absolute link the editor opens."""
    root = tmp_path / "project"
    uri = convert.uri_for("../env/lib/site-packages/pkg/mod.py", root)
    assert uri == (tmp_path / "env/lib/site-packages/pkg/mod.py").as_uri()
