"""Findings in an installed package's frames, reported where the user can act (report/attribution.py):
at the project line through which the compiled code was reached, static and runtime alike, the package's
place kept beside it; grouped per call site and cause; never an all-clear when the runtime saw breaks.

The package is `tinylib` (tests/analyzer/library_package.py): shaped like transformers, installed into a
temporary `site-packages`, its model compiled by the user's script in three styles. Its block's forward
prints on the path the script's config chooses (GB0059) and bakes `config.scale`."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from tests.analyzer.library_package import SCRIPTS, write_script
from vtlint.check import CheckResult, RuntimeInput, run_check
from vtlint.config import Config
from vtlint.findings import Evidence, Finding, Kind, Level, Location, Related
from vtlint.report.attribution import as_the_walk_places, inside_install
from vtlint.trace import Action, Event

CALLS = {"module_import": "model(torch.ones(2, 8))", "package_attribute": "compiled(x)",
         "auto_class": "model(torch.ones(2, 8))"}


def check(folder: Path, runtime: RuntimeInput | None = None) -> CheckResult:
    return run_check([folder], Config(root=folder), use_cache=False, runtime=runtime)


def line_of(folder: Path, text: str) -> int:
    lines = (folder / "run.py").read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def model_file(site: Path) -> str:
    return (site / "tinylib" / "models" / "tiny" / "modeling_tiny.py").as_posix()


# -- static ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("style", sorted(SCRIPTS))
def test_a_package_frames_findings_are_reported_at_the_call_that_reaches_them(style: str, site: Path,
                                                                              tmp_path: Path) -> None:
    folder = tmp_path / style
    write_script(folder, style)
    result = check(folder)
    call = line_of(folder, CALLS[style])
    assert result.findings and {(f.location.path, f.location.line) for f in result.findings} == {("run.py", call)}
    [brk] = [f for f in result.findings if f.kind is Kind.GRAPH_BREAK]
    assert (brk.gb_id, brk.level) == ("GB0059", Level.WARNING)
    [place] = brk.library
    assert (place.location.path, place.location.line, place.message) == (model_file(site), 17, "TinyBlock.forward")
    assert brk.message.endswith("(in `tinylib/models/tiny/modeling_tiny.py:17 TinyBlock.forward`)")
    # the wrappers and forwards of the package the walk inlined: notes at the call too (the terminal hides them)
    calls = [f for f in result.findings if f.kind is Kind.INLINED_CALL]
    assert calls and all(f.level is Level.NOTE and f.library for f in calls)
    scale = next(f for f in result.findings if f.source == "L['self'].config.scale")
    assert inside_install(scale.library[0].location.path) == "tinylib/models/tiny/modeling_tiny.py"


def test_with_no_call_in_sight_the_compile_line_reaches_the_package(site: Path, tmp_path: Path) -> None:
    folder = tmp_path / "compiled_only"
    folder.mkdir()
    (folder / "run.py").write_text(textwrap.dedent('''
        import torch
        from tinylib.models.tiny.configuration_tiny import TinyConfig
        from tinylib.models.tiny.modeling_tiny import TinyModel

        model = torch.compile(TinyModel(TinyConfig(hidden=8, mode="slow")))
    ''').lstrip())
    result = check(folder)
    assert result.findings
    assert {(f.location.path, f.location.line) for f in result.findings} == {("run.py", 5)}


def test_a_project_entry_keeps_its_own_lines(project) -> None:  # noqa: ANN001 - the conftest fixture
    root = project({"m.py": "import torch\n\n\n@torch.compile\ndef f(x):\n    print(x)\n    return x\n"})
    [brk] = [f for f in check(root).findings if f.kind is Kind.GRAPH_BREAK]
    assert (brk.location.path, brk.location.line, brk.library) == ("m.py", 6, ())


# -- runtime --------------------------------------------------------------------------------------------


def _runtime(site: Path, call: int, again: int) -> RuntimeInput:
    """What `to_events(..., library_frames=True)` makes of a run of the module_import script with a second,
    longer call: each frame the harness reached through a project call names that call (`reached_at`)."""
    model, utils = model_file(site), (site / "tinylib" / "utils.py").as_posix()
    outer, block = f"{model}:TinyModel.forward", f"{model}:TinyBlock.forward"
    first, second = {"path": "run.py", "line": call}, {"path": "run.py", "line": again}

    def frame(entry: str, line: int) -> Event:
        return Event(Action.FRAME, Location(model, line), entry, frame="forward",
                     detail={"compiles": 2, "reached_at": first})

    def size(entry: str, source: str, line: int) -> Event:
        guard = f"tensor '{source[3:-2]}' size mismatch at index 0. expected 2, actual 3"
        return Event(Action.RECOMPILE, Location(model, line), entry, frame="forward", source=source,
                     guard_kind="TENSOR_MATCH", detail={"failing_guard": guard, "reached_at": second, "cause": True})

    events = [
        frame(outer, 27), frame(block, 14),
        Event(Action.GRAPH_BREAK, Location(model, 17), outer, frame="wrapper", gb_type="Failed to trace builtin "
              "operator", gb_id="GB0059", chain=(), detail={"reached_at": first, "resume": "torch_dynamo_resume_in_"
                                                                                      "forward_at_17"}),
        Event(Action.GRAPH_BREAK, Location(model, 17), block, frame="forward", gb_type="Failed to trace builtin "
              "operator", gb_id="GB0059", detail={"reached_at": first}),
        size(outer, "L['x']", 29), size(block, "L['x']", 15),
        Event(Action.INLINE, Location(utils, 10), outer, callee="tinylib.utils.deprecate_kwarg", detail={}),
    ]
    entries = [{"entry": outer, "compiles": 2, "graph_breaks": 1}, {"entry": block, "compiles": 2, "graph_breaks": 1}]
    return RuntimeInput(events, exercised=lambda e: e.entry in (outer, block), summary={"entries": entries})


def _longer_call(folder: Path) -> None:
    script = (folder / "run.py").read_text()
    (folder / "run.py").write_text(script.replace("        model(torch.ones(2, 8))\n",
                                                  "        model(torch.ones(2, 8))\n        model(torch.ones(3, 8))\n"))


def test_runtime_facts_of_a_package_frame_are_reported_at_the_call_that_reached_them(site: Path,
                                                                                   tmp_path: Path) -> None:
    folder = tmp_path / "module_import"
    write_script(folder, "module_import")
    _longer_call(folder)
    call, again = line_of(folder, "torch.ones(2, 8)"), line_of(folder, "torch.ones(3, 8)")
    result = check(folder, _runtime(site, call, again))
    assert all(f.location.path == "run.py" for f in result.findings)
    # the break the static pass predicted, seen by both frames Dynamo compiled around it: one finding
    [brk] = [f for f in result.findings if f.kind is Kind.GRAPH_BREAK]
    assert (brk.location.line, brk.evidence, brk.gb_id) == (call, Evidence.CONFIRMED, "GB0059")
    # the longer sequence fails the TENSOR_MATCH of both frames: one recompile, at the call that failed it
    [size] = [f for f in result.findings if f.kind is Kind.RECOMPILE and "size mismatch" in f.message]
    assert (size.location.line, size.level, size.evidence) == (again, Level.WARNING, Evidence.CONFIRMED)
    assert {e.rpartition(":")[2] for e in size.entries} == {"TinyModel.forward", "TinyBlock.forward"}
    # each decorated forward is two code objects, its decorator's wrapper and itself, each recompiling on the
    # longer x (torch's recompiles log names all four; its trace keeps one per entry and Source), and the block's
    # resume function after the print, on the longer y it is handed
    assert ("the same in 4 more compiled frames: `L['x']` of `TinyModel.forward`, `L['x']` of `TinyBlock.forward` "
            "(×2), `L['y']` of `TinyBlock.forward`") in size.message
    # the package's place of each frame in the group: the model's wrapper, its forward, the block's wrapper
    assert [(p.location.line, p.message) for p in size.library] == [
        (10, "can_return_tuple.<locals>.wrapper"), (30, "TinyModel.forward"),
        (22, "deprecate_kwarg.<locals>.wrapper.<locals>.wrapped_func")]


def test_a_package_frames_compile_count_is_left_out_when_its_recompiles_say_why(site: Path, tmp_path: Path) -> None:
    """VTL402 of a package's frame counts its wrappers' code objects too: with the recompile's failing guard
    reported (VTL111) it adds nothing; without one it stays, named by the function the report places."""
    folder = tmp_path / "module_import"
    write_script(folder, "module_import")
    _longer_call(folder)
    call, again = line_of(folder, "torch.ones(2, 8)"), line_of(folder, "torch.ones(3, 8)")
    runtime = _runtime(site, call, again)
    recompiled = {"compiles": 4, "frames": {"wrapper": 2, "forward": 2}, "graph_count": 2,
                  "reached_at": {"path": "run.py", "line": call}}
    events = [e.with_(detail={**e.detail, **recompiled}) if e.action is Action.FRAME else e for e in runtime.events]
    block = f"{model_file(site)}:TinyBlock.forward"
    explained = [e for e in events if not (e.action is Action.RECOMPILE and e.entry == block)]
    [frame] = [f for f in check(folder, RuntimeInput(explained, runtime.exercised, summary=runtime.summary)).findings
               if f.code == "VTL402"]
    assert frame.entry == block and frame.location == Location("run.py", call)
    assert frame.message.startswith("`TinyBlock.forward` was compiled 4 times by the harness (wrapper ×2, forward ×2")
    assert not [f for f in check(folder, RuntimeInput(events, runtime.exercised, summary=runtime.summary)).findings
                if f.code == "VTL402"]


def test_a_package_frame_no_project_call_reaches_is_not_linked(site: Path, tmp_path: Path) -> None:
    folder = tmp_path / "module_import"
    write_script(folder, "module_import")
    lone = f"{(site / 'tinylib' / 'auto.py').as_posix()}:LazyMapping.__getitem__"
    events = [Event(Action.FRAME, Location(lone.rpartition(":")[0], 12), lone, frame="__getitem__",
                    detail={"compiles": 1}),
              Event(Action.GRAPH_BREAK, Location(lone.rpartition(":")[0], 14), lone, gb_id="GB0007",
                    gb_type="Attempted to call function marked as skipped")]
    summary = {"entries": [{"entry": lone, "compiles": 1, "graph_breaks": 1}]}
    result = check(folder, RuntimeInput(events, exercised=lambda e: False, summary=summary))
    assert not [f for f in result.findings if f.entry == lone]
    assert result.runtime["entries"] == []
    [unlinked] = result.runtime["unlinked"]
    assert (unlinked["code"], unlinked["compiles"]) == ("LazyMapping.__getitem__", 1)
    assert "no project call" in unlinked["why"]


def test_a_project_entrys_runtime_break_in_a_package_joins_the_walks_prediction(tmp_path: Path) -> None:
    """A compiled training step inlines a model: the walk reports the model's break at the step's call of
    the model; the runtime, which names the package's line, is placed the same way before the join."""
    library = "/env/lib/site-packages/pkg/model.py"
    chain = (Related(Location("train.py", 9), "calls forward() here"),
             Related(Location(library, 30), "calls block() here"))
    seen = Event(Action.GRAPH_BREAK, Location(library, 17), "train.py:step", gb_type="Data-dependent branching",
                 gb_id="GB0170", chain=chain)
    inline = Event(Action.INLINE, Location(library, 30), "train.py:step", callee="pkg.model.Block.forward")
    [placed] = as_the_walk_places([seen, inline])
    assert (placed.location.path, placed.location.line, placed.chain) == ("train.py", 9, ())
    assert placed.detail["library_site"] == "pkg.model:17"
    assert placed.detail["library_place"] == {"path": library, "line": 17, "column": 1}


# -- the reports ----------------------------------------------------------------------------------------


def test_the_text_report_groups_the_constants_and_prints_the_package_place(run_cli, site: Path,
                                                                          tmp_path: Path) -> None:
    folder = tmp_path / "module_import"
    write_script(folder, "module_import")
    call = line_of(folder, CALLS["module_import"])
    output = run_cli("check", ".", "--no-cache", cwd=folder).output
    constants = [line for line in output.splitlines() if ": VTL101 " in line]
    assert len(constants) == 1 and constants[0].startswith(f"run.py:{call}:1: VTL101 6 values are baked")
    assert "`L['self'].config` (`mode`, `scale`)" in constants[0]
    assert f"    in <site-packages>/tinylib/models/tiny/modeling_tiny.py:17:" in output
    assert "6 baked constants shown as 1 note" in output and "All checks passed" not in output
    for each in (("-v",), ("--select", "VTL101")):
        listed = run_cli("check", ".", "--no-cache", *each, cwd=folder).output
        assert len([line for line in listed.splitlines() if ": VTL101 " in line]) == 6, each


def test_sarif_keeps_every_result_in_the_project_with_the_package_place_related(run_cli, site: Path,
                                                                               tmp_path: Path) -> None:
    from tests.sarif.sarif_support import validate_sarif

    folder = tmp_path / "module_import"
    write_script(folder, "module_import")
    text = run_cli("check", ".", "--no-cache", "--format", "sarif", cwd=folder).output
    log = json.loads(text)
    results = log["runs"][0]["results"]
    # six baked constants, the break and the calls the package's frames inline, each its own result
    assert [r["ruleId"] for r in results].count("VTL101") == 6
    assert [r["ruleId"] for r in results].count("VTL301") >= 2
    for result in results:
        assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "run.py",
                                                                                  "uriBaseId": "%SRCROOT%"}
        assert result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] == "SITE_PACKAGES"
    [brk] = [r for r in results if r["ruleId"] == "VTL202"]
    first = brk["relatedLocations"][0]
    assert first["physicalLocation"]["artifactLocation"] == {"uri": "tinylib/models/tiny/modeling_tiny.py",
                                                             "uriBaseId": "SITE_PACKAGES"}
    assert first["physicalLocation"]["region"]["startLine"] == 17
    assert brk["properties"]["library"] == [{"uri": "tinylib/models/tiny/modeling_tiny.py", "line": 17,
                                             "function": "TinyBlock.forward"}]
    flow = brk["codeFlows"][0]["threadFlows"][0]["locations"]
    assert flow[0]["location"]["physicalLocation"]["artifactLocation"]["uri"] == "run.py"
    assert flow[-1]["location"]["physicalLocation"]["region"]["startLine"] == 17
    sarif = tmp_path / "out.sarif"
    sarif.write_text(text)
    assert validate_sarif.main(["--no-multitool", str(sarif)]) == 0


def test_github_annotations_are_on_the_users_line(run_cli, site: Path, tmp_path: Path) -> None:
    folder = tmp_path / "module_import"
    write_script(folder, "module_import")
    output = run_cli("check", ".", "--no-cache", "--format", "github", cwd=folder).output
    call = line_of(folder, CALLS["module_import"])
    annotations = output.splitlines()
    assert annotations and all(f"file=run.py,line={call}," in a for a in annotations if a.startswith("::warning"))
    assert "in tinylib/models/tiny/modeling_tiny.py:17 TinyBlock.forward" in output.replace("%0A", "\n")


def test_the_json_report_carries_the_package_place_and_validates(run_cli, site: Path, tmp_path: Path) -> None:
    from importlib import resources

    import jsonschema

    folder = tmp_path / "module_import"
    write_script(folder, "module_import")
    report = json.loads(run_cli("check", ".", "--no-cache", "--format", "json", cwd=folder).output)
    jsonschema.validate(report, json.loads(resources.files("vtlint.report").joinpath("schemas/report-v1.json")
                                           .read_text()))
    [brk] = [f for f in report["findings"] if f["kind"] == "graph-break"]
    assert brk["path"] == "run.py"
    assert brk["library"] == [{"location": {"path": "<site-packages>/tinylib/models/tiny/modeling_tiny.py",
                                            "line": 17, "column": 13, "end_line": 17, "end_column": 31},
                               "message": "TinyBlock.forward"}]


# -- grouped, not flooded -------------------------------------------------------------------------------


def _constant(source: str, line: int, entry: str = "m.py:f", **changes: object) -> Finding:
    finding = Finding("VTL101", Kind.BAKED_CONSTANT, Level.NOTE, Location("m.py", line), f"`{source}` is baked",
                      source=source, guard=f"EQUALS_MATCH: {source} == 1", entry=entry)
    return finding.with_(**changes)


def test_a_compiled_entrys_constants_are_one_note_but_those_that_change(tmp_path: Path) -> None:
    from vtlint.report.groups import constants_grouped

    constants = [_constant("L['self'].norm.eps", 3), _constant("L['self'].drop.p", 4), _constant("L['n']", 5),
                 _constant("L['self'].drop.inplace", 6)]
    changes = Finding("VTL111", Kind.RECOMPILE, Level.WARNING, Location("m.py", 9), "recompile", source="L['n']",
                      entry="m.py:f")
    shown = constants_grouped([*constants, changes])
    [group] = [f for f in shown if f.members]
    assert [m.source for m in group.members] == ["L['self'].norm.eps", "L['self'].drop.p", "L['self'].drop.inplace"]
    assert group.location.line == 3 and group.code == "VTL101" and group.level is Level.NOTE
    assert group.message.startswith("3 values are baked into the graph of `f`, each behind a value guard: "
                                    "`L['self'].drop` (`p`, `inplace`), `L['self'].norm` (`eps`)")
    # the one the calls change stays on its own line, beside its recompile
    assert [f.source for f in shown if not f.members] == ["L['n']", "L['n']"]
    # two are clearer one by one; confirmed and predicted are never one note
    assert not [f for f in constants_grouped(constants[:2]) if f.members]
    mixed = [constants[0], constants[1], constants[3].with_(evidence=Evidence.CONFIRMED)]
    assert not [f for f in constants_grouped(mixed) if f.members]


def test_the_editor_groups_only_a_packages_constants_reached_at_one_line() -> None:
    from vtlint.lsp.convert import grouped

    place = Related(Location("/env/lib/site-packages/pkg/m.py", 7), "Block.forward")
    reached = [_constant(f"L['self'].a{i}", 11, entry="/env/lib/site-packages/pkg/m.py:Block.forward",
                         library=(place,)) for i in range(3)]
    own = [_constant(f"L['b{i}']", 20 + i) for i in range(3)]
    shown = grouped([*reached, *own])
    assert [len(f.members) for f in shown] == [3, 0, 0, 0]
    assert shown[0].library == (place,) and "reached here" in shown[0].message


@pytest.mark.parametrize(("script", "line", "built"), [
    ("cfg = C(h=1)\nmodel = M(cfg).eval()\ncompiled = torch.compile(model)\ncompiled(input_ids=ids)\n", 4, ("cfg", 1)),
    ("cfg = C()\nmodel = AutoModel.from_config(config=cfg)\nmodel.compile()\nmodel(ids)\n", 4, ("cfg", 1)),
    ("import torch\n\nmodel = torch.compile(M(C(h=1)))\n", 3, (None, 3)),  # the compile line, no call in sight
    ("def predict(module, x):\n    return module(x)\n", 2, None),  # a parameter: nothing to follow
    ("x = torch.ones(2)\ncompiled(x)\n", 2, None),  # the call's argument is no config
    ("model = AutoModel.from_pretrained('name', dtype=None)\nmodel(ids)\n", 2, None),
    ("unet = diffusers.UNet2DModel(sample_size=16)\nunet.compile()\nunet(x, t)\n", 3, (None, 1)),
    ("unet = UNet2DModel(sample_size=16,\n    norm_num_groups=8).eval()\nunet = torch.compile(unet)\nunet(x, t)\n", 4,
     (None, 1)),  # diffusers: the constructor's keywords are the model's config
])
def test_the_config_is_followed_back_from_the_call_by_its_names(script: str, line: int,
                                                                 built: tuple[str | None, int] | None) -> None:
    from vtlint.report.attribution import config_built_at

    assert config_built_at(script, line) == built


def test_a_packages_config_values_are_one_note_from_the_line_that_built_the_config() -> None:
    from vtlint.report.groups import constants_grouped

    place = Related(Location("/env/lib/site-packages/pkg/m.py", 7), "Block.forward")
    built = Related(Location("run.py", 5), "the config `cfg` built here")
    entry = "/env/lib/site-packages/pkg/m.py:Block.forward"
    config = [_constant(f"L['self'].config.{name}", 11, entry=entry, library=(place,), related=(built,))
              for name in ("hidden_size", "num_local_experts", "return_dict")]
    other = [_constant(f"L['self'].drop.{name}", 11, entry=entry, library=(place,)) for name in ("p", "inplace", "t")]
    notes = [f for f in constants_grouped([*config, *other]) if f.members]
    assert [n.message for n in notes] == [
        "3 values of the config are baked into the graph of `Block.forward` from `cfg` at run.py:5 (`hidden_size`, "
        "`num_local_experts`, `return_dict`), each behind a value guard; -v or --select VTL101 lists each",
        "3 values are baked into the graph of `Block.forward` reached here, each behind a value guard: "
        "`L['self'].drop` (`p`, `inplace`, `t`); -v or --select VTL101 lists each"]
    assert notes[0].related == (built,)  # SARIF, GitHub and the hover link the config's line
    # one or two values of the config read better in the line's own note
    [note] = [f for f in constants_grouped([*config[:2], *other]) if f.members]
    assert len(note.members) == 5 and note.message.startswith("5 values are baked")


def test_the_editor_shows_a_packages_inlined_calls_as_one_note_sarif_keeps_each() -> None:
    from vtlint.lsp.convert import grouped

    place = Related(Location("/env/lib/site-packages/pkg/m.py", 7), "Block.forward")
    calls = [Finding("VTL301", Kind.INLINED_CALL, Level.NOTE, Location("run.py", 11), f"`pkg.m.f{i}` is inlined here",
                     entry="/env/lib/site-packages/pkg/m.py:Block.forward", library=(place,)) for i in range(5)]
    [note] = grouped(calls)
    assert note.members == tuple(calls) and note.message == (
        "5 calls are inlined (UserFunctionVariable) into the graph of `Block.forward` reached here: `pkg.m.f0`, "
        "`pkg.m.f1`, `pkg.m.f2`, `pkg.m.f3`, …; -v lists each")


# -- the summary ----------------------------------------------------------------------------------------


def test_no_all_clear_when_the_runtime_saw_breaks_or_recompiles() -> None:
    from vtlint.report.text import summary

    runtime = {"entries": [{"entry": "/env/lib/site-packages/pkg/m.py:Block.forward", "compiles": 3,
                            "graph_breaks": 1}], "unlinked": [{"code": "g", "file": "pkg/x.py", "compiles": 2}]}
    result = CheckResult(files=["run.py"], runtime=runtime)
    said = summary(result, show_notes=False).plain
    assert "All checks passed" not in said
    assert said == ("No findings in 1 file, but at runtime torch saw 1 graph break and 2 recompiles in "
                    "`Block.forward` and 2 compiles of code no project call reaches (the runtime summary below).")
    assert summary(CheckResult(files=["run.py"], runtime={"entries": []}), show_notes=False).plain == \
        "All checks passed in 1 file."


@pytest.mark.torch
def test_a_real_run_confirms_the_packages_break_and_recompile_at_the_scripts_lines(
        run_cli, site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "module_import"
    write_script(folder, "module_import")
    _longer_call(folder)
    monkeypatch.setenv("PYTHONPATH", str(site))
    call, again = line_of(folder, "torch.ones(2, 8)"), line_of(folder, "torch.ones(3, 8)")
    result = run_cli("check", ".", "--no-cache", "--format", "json", "--runtime-command", f"{sys.executable} run.py",
                     cwd=folder)
    report = json.loads(result.output)
    assert {f["path"] for f in report["findings"]} == {"run.py"}
    [brk] = [f for f in report["findings"] if f["kind"] == "graph-break"]
    assert (brk["line"], brk["gb_id"], brk["evidence"]) == (call, "GB0059", "confirmed")
    assert brk["library"][0]["location"]["line"] == 17
    size = [f for f in report["findings"] if f["kind"] == "recompile" and f["line"] == again]
    assert size and all(f["evidence"] == "confirmed" for f in size), size


def test_a_terminal_opens_the_packages_file_a_shared_report_names_it_inside_site_packages(tmp_path: Path) -> None:
    from io import StringIO

    from rich.console import Console

    from vtlint.report.shareable import openable, shareable
    from vtlint.report.text import render

    installed = tmp_path / "env" / "lib" / "site-packages" / "pkg" / "m.py"
    place = Related(Location(installed.as_posix(), 17, 5), "Block.forward")
    finding = Finding("VTL202", Kind.GRAPH_BREAK, Level.WARNING, Location("run.py", 9), "Graph break (GB0059 print) "
                      f"(in `pkg/m.py:17 Block.forward`)", gb_id="GB0059",
                      entry=f"{installed.as_posix()}:Model.forward", library=(place,))
    result = CheckResult(findings=[finding], files=["run.py"], root=tmp_path)

    def printed(shown: CheckResult) -> str:
        buffer = StringIO()
        render(shown, Console(file=buffer, no_color=True, width=10_000), show_notes=False, grouped=False, quiet=True)
        return buffer.getvalue()

    assert f"    in {installed.as_posix()}:17:5 Block.forward" in printed(openable(result))
    assert "    in <site-packages>/pkg/m.py:17:5 Block.forward" in printed(shareable(result))
    assert str(tmp_path) not in printed(shareable(result))


def test_a_noqa_on_the_users_line_silences_the_packages_break(site: Path, tmp_path: Path) -> None:
    folder = tmp_path / "module_import"
    write_script(folder, "module_import")
    script = (folder / "run.py").read_text()
    (folder / "run.py").write_text(script.replace("model(torch.ones(2, 8))\n", "model(torch.ones(2, 8))  # noqa: VTL202\n"))
    codes = {f.code for f in check(folder).findings}
    assert "VTL202" not in codes and "VTL101" in codes and "VTL901" not in codes


BERT = '''
import torch
from transformers import BertConfig, BertModel

config = BertConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=64, max_position_embeddings=64)
model = BertModel(config).eval()
compiled = torch.compile(model)
with torch.no_grad():
    compiled(input_ids=torch.randint(0, 100, (1, 8)))
    compiled(input_ids=torch.randint(0, 100, (1, 12)))
'''


def test_a_transformers_encoder_is_reported_in_the_script(tmp_path: Path) -> None:
    """The real package, read from disk (about 10 s of CPU): every finding at a line of the script, the
    longer second call's TENSOR_MATCH recompile a warning there."""
    pytest.importorskip("transformers")
    (tmp_path / "run.py").write_text(BERT.lstrip())
    result = check(tmp_path)
    assert result.findings and {f.location.path for f in result.findings} == {"run.py"}
    [size] = [f for f in result.findings if f.kind is Kind.RECOMPILE]
    assert (size.location.line, size.source, size.level) == (10, "L['input_ids']", Level.WARNING)
    places = {inside_install(p.location.path).partition("/")[0] for f in result.findings for p in f.library}
    # torch.nn's built-in forwards are inlined too; the calls the standard library's Mapping.get makes of
    # transformers' registries are at no place a report shows (the runtime reports none there either)
    assert places == {"transformers", "torch"}
    from vtlint.report.groups import constants_grouped

    [config] = [f for f in constants_grouped(result.findings) if "of the config" in f.message]
    assert " of the config are baked into the graph of `BertModel.forward` from `config` at run.py:4 (" in \
        config.message
    assert len(config.members) >= 3
    assert config.related == (Related(Location("run.py", 4), "the config `config` built here"),)


MIXTRAL = """
import torch
from transformers import MixtralConfig, MixtralForCausalLM

cfg = MixtralConfig(vocab_size=128, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                    num_attention_heads=4, num_key_value_heads=2, num_local_experts=4,
                    experts_implementation="eager")
model = MixtralForCausalLM(cfg).eval()
compiled = torch.compile(model)
with torch.inference_mode():
    compiled(input_ids=torch.randint(0, 128, (1, 8)))
    compiled(input_ids=torch.randint(0, 128, (1, 12)))
"""


def test_mixtrals_eager_experts_break_at_the_call_with_the_package_lines_related(tmp_path: Path) -> None:
    """Issue 34's script, read statically (about 15 s of CPU): the experts' nonzero (GB0036, line 79) and the
    loop's `if` on a tensor row (GB0170, line 83) at the call, the longer call's recompile at its line, the
    shared decorator wrapper's recompiles at the first call, the config's values from the line that built
    `cfg`."""
    pytest.importorskip("transformers")
    from vtlint.report.groups import constants_grouped

    (tmp_path / "run.py").write_text(MIXTRAL.lstrip())
    result = check(tmp_path)
    assert {f.location.path for f in result.findings} == {"run.py"}
    breaks = {(f.gb_id, f.location.line, f.library[0].location.line) for f in result.findings
              if f.kind is Kind.GRAPH_BREAK}
    assert {("GB0036", 10, 79), ("GB0170", 10, 83)} <= breaks
    recompiles = [f for f in result.findings if f.kind is Kind.RECOMPILE]
    [size] = [f for f in recompiles if f.location.line == 11]
    assert (size.source, size.level) == ("L['input_ids']", Level.WARNING)
    # the first call's frames recompile `deprecate_kwarg`'s wrapped_func, one code object for each function it
    # wraps; the experts' activation on the next expert's token count; the second layer on the cache the first
    # one filled (all measured on this script): each reported at the call, with the package's line related
    others = [f for f in recompiles if f is not size]
    assert all(f.location.line == 10 and f.library for f in others)
    assert [f for f in others if "one code object" in f.message]
    assert {f.source for f in others if "one code object" not in f.message} == {
        "L['input']", "L['cache'].layers[0].is_initialized"}
    [config] = [f for f in constants_grouped(result.findings) if "of the config" in f.message]
    assert "from `cfg` at run.py:4 (" in config.message

