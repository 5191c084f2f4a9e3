"""Entries compiled from an installed package, found in the user's script with no flags: the model
class reached through a direct import, a lazy package's attribute or an Auto class's registry; the
script's config values flowing into its construction; the entry's events kept in the package's own
files, the same whichever way the script compiled it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.analyzer.library_package import SCRIPTS, write_script
from vtlint.analyzer import Prediction, analyze
from vtlint.analyzer.files import discover
from vtlint.config import Config
from vtlint.trace import Action

VALUE_GUARDS = {"EQUALS_MATCH", "TRUE_MATCH", "FALSE_MATCH", "NONE_MATCH", "CONSTANT_MATCH"}


def check(folder: Path) -> Prediction:
    """`vtlint check .` in `folder`."""
    config = Config(root=folder)
    return analyze(discover([folder], config).files, config, use_cache=False)


@pytest.mark.parametrize("style", sorted(SCRIPTS))
def test_the_compiled_model_of_a_package_is_an_entry_whatever_the_script_style(style: str, site: Path,
                                                                              tmp_path: Path) -> None:
    folder = tmp_path / style
    write_script(folder, style)
    prediction = check(folder)
    model = (site / "tinylib" / "models" / "tiny" / "modeling_tiny.py").as_posix()
    assert [e.entry for e in prediction.entries] == [f"{model}:TinyModel.forward"]
    # where the user reaches it: the line that compiles it, and the call (in a helper, for one style)
    lines = (folder / "run.py").read_text().splitlines()
    [info] = prediction.entries
    assert info.compiled_at is not None and "torch.compile(" in lines[info.compiled_at.line - 1]
    assert [(c.path, c.line) for c in info.called_at] == [
        ("run.py", n) for n, text in enumerate(lines, 1) if "(torch.ones(2, 8))" in text or "compiled(x)" in text]
    assert not [n for n in prediction.notifications if "cannot resolve" in n.message]
    # the script's `mode="slow"` reached `__post_init__` through strict(accept_kwargs=True): the print runs
    [graph_break] = [e for e in prediction.events if e.action is Action.GRAPH_BREAK]
    assert (graph_break.location.path, graph_break.location.line, graph_break.gb_id) == (model, 17, "GB0059")
    # the break is inside the block's forward, inlined through its decorator: that forward is a frame of
    # its own, named after the decorated function (not its wrapper), with the block as its `L['self']`
    frames = {e.entry for e in prediction.events if e.action is Action.FRAME}
    assert frames == {f"{model}:TinyModel.forward", f"{model}:TinyBlock.forward"}
    constants = {e.source: e.value for e in prediction.events
                 if e.action is Action.WRAP and e.variable_tracker == "ConstantVariable"}
    assert constants["L['self'].config.scale"] == "2.0"
    assert constants["L['self'].config.mode"] == "'slow'"


def test_the_package_frames_findings_do_not_depend_on_the_script_style(site: Path, tmp_path: Path) -> None:
    def library_keys(style: str) -> set[tuple[object, ...]]:
        folder = tmp_path / style
        write_script(folder, style)
        return {(e.key, e.guard) for e in check(folder).events if e.location.path.startswith(site.as_posix())}

    found = {style: library_keys(style) for style in SCRIPTS}
    assert found["module_import"]
    assert found["module_import"] == found["package_attribute"] == found["auto_class"]


@pytest.mark.torch
@pytest.mark.parametrize("style", sorted(SCRIPTS))
def test_the_package_frames_predicted_are_the_ones_torch_compiles(style: str, site: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from vtlint.runtime.step import run_step

    folder = tmp_path / style
    write_script(folder, style)
    monkeypatch.setenv("PYTHONPATH", str(site))
    facts = run_step([sys.executable, "run.py"], folder, timeout=300, library_frames=True)
    predicted = check(folder).events

    def keys(events: list, action: Action) -> set[tuple[object, ...]]:
        """Graph breaks; constants whose value is guarded (a bool the frame only passes on is guarded by
        its type: its value is not baked)."""
        return {e.key for e in events if e.action is action and (action is not Action.WRAP or (
            e.variable_tracker == "ConstantVariable" and e.guard_kind in VALUE_GUARDS))}

    for action in (Action.GRAPH_BREAK, Action.WRAP):
        assert keys(predicted, action) == keys(facts.events, action), action
    assert keys(facts.events, Action.GRAPH_BREAK)  # the config's mode="slow" took the path that prints
