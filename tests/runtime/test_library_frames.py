"""`to_events(..., library_frames=True)`: a frame compiled in an installed package is an entry
like a project one, named `<absolute path as imported>:<Qualified.name>` (the static pass's name
of a library module: `Path(site_packages, *module_parts).as_posix()`), its events at the
library's own lines. torch's own files never are; without the option nothing changes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from vtlint.runtime.events import to_events
from vtlint.runtime.structured_trace import Compile, GraphBreak, Guard, InlineCall, StackFrame, TraceFacts
from vtlint.trace import Action

MODEL = '''
from deco import can_return_tuple


class Model:
    @can_return_tuple
    def forward(self, x):
        y = x * self.scale
        if y.sum() > 0:
            return y
        return -y
'''

DECORATORS = '''
import functools


def can_return_tuple(func):
    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        flag = read_flag(self)
        return func(self, *args, **kwargs)
    return wrapper


def read_flag(obj):
    return obj.flag
'''


def _site(tmp_path: Path) -> tuple[Path, Path, Path]:
    root, site = tmp_path / "project", tmp_path / "env" / "lib" / "site-packages"
    for package in ("pkg", "deco", "torch"):
        (site / package).mkdir(parents=True)
    root.mkdir()
    (site / "pkg" / "model.py").write_text(MODEL)
    (site / "deco" / "__init__.py").write_text(DECORATORS)
    (site / "torch" / "linear.py").write_text("def forward(self, x):\n    return x\n")
    return root, site / "pkg" / "model.py", site / "deco" / "__init__.py"


def _forward_compile(model: Path) -> Compile:
    guard = Guard("EQUALS_MATCH", "L['self'].scale == 2", "L['self'].scale", "int", "pkg/model.py", 8, "forward")
    brk = GraphBreak("0/0", "Data-dependent branching", "GB0170", str(model), 9,
                     user_stack=(StackFrame(str(model), 9, "forward"),))
    return Compile("0/0", 0, 0, 0, co_name="forward", co_filename=str(model), co_firstlineno=6,
                   guards=[guard], graph_breaks=[brk])


def test_a_library_frame_is_an_entry_named_by_its_absolute_path(tmp_path: Path) -> None:
    root, model, _ = _site(tmp_path)
    observed = to_events(TraceFacts(compiles=[_forward_compile(model)]), root, library_frames=True)
    entry = f"{model.as_posix()}:Model.forward"
    assert list(observed.coverage) == [entry]
    (scale,) = [e for e in observed.events if e.action is Action.WRAP]
    assert (scale.entry, scale.source, scale.variable_tracker) == (entry, "L['self'].scale", "ConstantVariable")
    assert (scale.location.path, scale.location.line) == (model.as_posix(), 8)
    (brk,) = [e for e in observed.events if e.action is Action.GRAPH_BREAK]
    assert brk.key == ("graph-break", model.as_posix(), 9, brk.gb_type) and brk.entry == entry


def test_without_the_option_a_library_frame_stays_unlinked(tmp_path: Path) -> None:
    root, model, _ = _site(tmp_path)
    observed = to_events(TraceFacts(compiles=[_forward_compile(model)]), root)
    assert observed.coverage == {} and [e for e in observed.events if e.action is not Action.FRAME] == []
    assert [u["code"] for u in observed.unlinked] == ["forward"]


def test_the_path_is_normalized_but_not_resolved(tmp_path: Path) -> None:
    """`os.path.normpath(co_filename)`: a symlinked site-packages keeps the name it was imported by."""
    root, model, _ = _site(tmp_path)
    linked = tmp_path / "linked-env"
    linked.symlink_to(tmp_path / "env")
    spelled = f"{linked}/lib/site-packages/pkg/../pkg/model.py"
    compile = _forward_compile(model)
    compile.co_filename = spelled
    observed = to_events(TraceFacts(compiles=[compile]), root, library_frames=True)
    assert list(observed.coverage) == [f"{linked.as_posix()}/lib/site-packages/pkg/model.py:Model.forward"]


def test_torch_frames_are_never_entries(tmp_path: Path) -> None:
    root, _, _ = _site(tmp_path)
    torch_file = str(root.parent / "env" / "lib" / "site-packages" / "torch" / "linear.py")
    compile = Compile("0/0", 0, 0, 0, co_name="forward", co_filename=torch_file, co_firstlineno=1)
    assert to_events(TraceFacts(compiles=[compile]), root, library_frames=True).coverage == {}


def test_a_compiled_decorator_wrapper_is_the_entry_of_the_function_it_closes_over(tmp_path: Path) -> None:
    """The wrapper first calls a helper of its own package (`read_flag`, a library function
    now), then `func`: the compile is the decorated `Model.forward`'s, not the helper's. The
    wrapper frame's own calls are not events, as for a project function's wrapper."""
    root, model, deco = _site(tmp_path)
    wrapper = (str(deco), "wrapper", 6)

    def call(line: int, callee: tuple[str, str, str, int]) -> InlineCall:
        return InlineCall(str(deco), line, "wrapper", callee[0], callee[1], callee[2], callee[3],
                          root_file=wrapper[0], root_name=wrapper[1], root_firstlineno=wrapper[2])

    calls = [call(8, (str(deco), "read_flag", "read_flag", 13)), call(9, (str(model), "forward", "Model.forward", 6))]
    compile = Compile("0/0", 0, 0, 0, co_name="wrapper", co_filename=str(deco), co_firstlineno=6)
    observed = to_events(TraceFacts(compiles=[compile], inlines=calls), root, library_frames=True)
    assert list(observed.coverage) == [f"{model.as_posix()}:Model.forward"]
    assert [e for e in observed.events if e.action is Action.INLINE] == []


def test_a_wrappers_globals_are_spelled_as_the_method_s_frame_spells_them(tmp_path: Path) -> None:
    """transformers compiles a model's forward as its decorator's `wrapper` (another module): Dynamo reads the
    forward's module through its alias (`G['__import_pkg_dot_model'].SCALE`), the static pass as the forward's
    own frame does (`G['SCALE']`); and the wrapper's own global `G['FLAG']` is `G['__import_deco'].FLAG` there."""
    root, model, deco = _site(tmp_path)
    call = InlineCall(str(deco), 9, "wrapper", str(model), "forward", "Model.forward", 6, root_file=str(deco),
                      root_name="wrapper", root_firstlineno=6)
    guards = [Guard("EQUALS_MATCH", "G['__import_pkg_dot_model'].SCALE == 2", "G['__import_pkg_dot_model'].SCALE",
                    "int", "pkg/model.py", 8, "forward"),
              Guard("EQUALS_MATCH", "G['FLAG'] == 1", "G['FLAG']", "int", "deco/__init__.py", 8, "wrapper")]
    compile = Compile("0/0", 0, 0, 0, co_name="wrapper", co_filename=str(deco), co_firstlineno=6, guards=guards)
    observed = to_events(TraceFacts(compiles=[compile], inlines=[call]), root, library_frames=True)
    assert sorted(e.source for e in observed.events if e.action is Action.WRAP) == ["G['SCALE']",
                                                                                    "G['__import_deco'].FLAG"]


def test_a_library_frames_inlined_calls_are_reached_where_the_frame_was(tmp_path: Path) -> None:
    """Each inlined call of a library frame names the project line torch compiled that frame under, as its
    guards and breaks do: the report places it there (report/attribution.py)."""
    root, model, deco = _site(tmp_path)
    (root / "run.py").write_text("model(x)\n" * 3)
    compile = _forward_compile(model)
    compile = Compile(**{**compile.__dict__, "stack": (StackFrame(str(root / "run.py"), 3, "<module>"),)})
    call = InlineCall(str(model), 8, "forward", str(deco), "read_flag", "read_flag", 13, root_file=str(model),
                      root_name="forward", root_firstlineno=6)
    observed = to_events(TraceFacts(compiles=[compile], inlines=[call]), root, library_frames=True)
    (inline,) = [e for e in observed.events if e.action is Action.INLINE]
    assert inline.detail["reached_at"] == {"path": "run.py", "line": 3}


LIBRARY = '''
import torch


class Scale(torch.nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor
        self.drop = torch.nn.Dropout(0.25)

    def forward(self, x):
        y = self.drop(x) * self.factor
        if y.sum() > 0:
            return y + 1
        return y - 1
'''

SCRIPT = '''
import torch
from tinylib.layers import Scale

model = Scale(3).eval()
torch.compile(model, backend="eager")(torch.ones(4))
'''


@pytest.mark.torch
def test_a_real_run_names_library_frames_as_the_static_pass_names_library_modules(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vtlint.analyzer.index import Project
    from vtlint.runtime.step import run_step

    root, site = tmp_path / "project", tmp_path / "site-packages"
    (site / "tinylib").mkdir(parents=True)
    root.mkdir()
    (site / "tinylib" / "__init__.py").write_text("")
    (site / "tinylib" / "layers.py").write_text(LIBRARY)
    (root / "run.py").write_text(SCRIPT)
    monkeypatch.setenv("PYTHONPATH", str(site))
    facts = run_step([sys.executable, "run.py"], root, timeout=300, library_frames=True)
    assert facts.harness["exit_code"] == 0, facts.notifications
    monkeypatch.syspath_prepend(str(site))
    summary = Project([], {}).library_module("tinylib.layers")
    assert summary is not None
    path = summary.display  # the static pass's name of the module
    assert path == os.path.normpath(site / "tinylib" / "layers.py")
    entry = f"{path}:Scale.forward"
    assert list(facts.coverage) == [entry]
    assert set(facts.coverage[entry].frames) == {"forward", "torch_dynamo_resume_in_forward_at_13"}
    wraps = {e.source: e for e in facts.events if e.action is Action.WRAP and e.entry == entry}
    assert (wraps["L['self'].factor"].value, wraps["L['self'].factor"].location.line) == ("3", 12)
    # a torch.nn built-in's attribute is read inside torch: credited at the library line calling it
    assert (wraps["L['self'].drop.p"].location.path, wraps["L['self'].drop.p"].location.line) == (path, 12)
    breaks = [(e.location.path, e.location.line) for e in facts.events if e.action is Action.GRAPH_BREAK]
    assert breaks == [(path, 13)]
    without = run_step([sys.executable, "run.py"], root, timeout=300)
    assert without.coverage == {} and "forward" in [u["code"] for u in without.unlinked]
