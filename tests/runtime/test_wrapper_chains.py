"""Compiled code reached through a chain of decorator wrappers outside the project
(transformers: `can_return_tuple`'s `wrapper` -> `deprecate_kwarg`'s `wrapped_func` ->
`GPT2LMHeadModel.forward`) is linked to the project function at the end of the chain; an
installed package's file checked explicitly counts as project code, named as the static
pass names it (relative to the root)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from vtlint.runtime.events import ProjectFiles, _Converter, to_events
from vtlint.runtime.structured_trace import Compile, Guard, InlineCall, TraceFacts
from vtlint.trace import Action

DECORATORS = '''
import functools


def can_return_tuple(func):
    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        return func(self, *args, **kwargs)
    return wrapper


def deprecate_kwarg(name):
    def wrapper(func):
        @functools.wraps(func)
        def wrapped_func(*args, **kwargs):
            kwargs.pop(name, None)
            return func(*args, **kwargs)
        return wrapped_func
    return wrapper
'''

MODEL = '''
from deco import can_return_tuple, deprecate_kwarg


class Model:
    @can_return_tuple
    @deprecate_kwarg("old")
    def forward(self, x, k=2):
        return x * k
'''


def _tree(tmp_path: Path) -> tuple[Path, Path, Path]:
    root = tmp_path / "project"
    site = tmp_path / "env" / "lib" / "site-packages"
    (site / "deco").mkdir(parents=True)
    (site / "pkg").mkdir(parents=True)
    root.mkdir()
    (site / "deco" / "__init__.py").write_text(DECORATORS)
    (site / "pkg" / "model.py").write_text(MODEL)
    return root, site / "deco" / "__init__.py", site / "pkg" / "model.py"


def _call(caller: tuple[str, str], callee: tuple[str, str, str, int], root: tuple[str, str, int]) -> InlineCall:
    return InlineCall(caller_file=caller[0], caller_line=1, caller_function=caller[1], callee_file=callee[0],
                      callee_name=callee[1], callee_qualname=callee[2], callee_firstlineno=callee[3],
                      root_file=root[0], root_name=root[1], root_firstlineno=root[2])


def _chain(deco: Path, model: Path) -> list[InlineCall]:
    root = (str(deco), "wrapper", 7)
    return [
        _call((str(deco), "wrapper"), (str(deco), "wrapped_func", "deprecate_kwarg.<locals>.wrapper.<locals>.wrapped_func",
                                       14), root),
        _call((str(deco), "wrapped_func"), (str(model), "forward", "Model.forward", 6), root),
    ]


def test_an_installed_file_checked_explicitly_is_project_code(tmp_path: Path) -> None:
    root, deco, model = _tree(tmp_path)
    assert ProjectFiles(root).display(str(model)) is None  # installed, not checked: not the project's
    files = ProjectFiles(root, outside=[model])
    assert files.display(str(model)) == "../env/lib/site-packages/pkg/model.py"
    assert files.display(str(deco)) is None  # the decorators' package was not checked


def test_a_chain_of_wrappers_outside_the_project_links_to_the_function_at_its_end(tmp_path: Path) -> None:
    root, deco, model = _tree(tmp_path)
    converter = _Converter(TraceFacts(inlines=_chain(deco, model)), ProjectFiles(root, outside=[model]))
    assert converter.entry_for_code(str(deco), "wrapper", 7) == (
        "../env/lib/site-packages/pkg/model.py:Model.forward", "wrapper")


def test_without_the_checked_file_the_chain_links_nothing(tmp_path: Path) -> None:
    root, deco, model = _tree(tmp_path)
    converter = _Converter(TraceFacts(inlines=_chain(deco, model)), ProjectFiles(root))
    assert converter.entry_for_code(str(deco), "wrapper", 7) is None


def _guard(kind: str, source: str, text: str, type_name: str) -> Guard:
    return Guard(kind, text, source, type_name, "deco/__init__.py", 16, "wrapped_func")


def test_a_default_the_wrapped_function_took_is_its_parameter(tmp_path: Path) -> None:
    """The wrapper's frame reads `forward`'s defaults through the closures of the chain
    (`L['func']` is `wrapped_func`, whose free variables are `func`, `name`: cell 0 is
    `forward`): `L['func'].__closure__[0].cell_contents.__defaults__[0]` is forward's `k`,
    which joins a prediction spelled `L['k']`. The tuple itself and the decorator's own
    cells stay out."""
    root, deco, model = _tree(tmp_path)
    root_code = (str(deco), "wrapper", 6)  # co_firstlineno: the decorator's line
    calls = [_call((str(deco), "wrapper"), (str(deco), "wrapped_func",
                                            "deprecate_kwarg.<locals>.wrapper.<locals>.wrapped_func", 14), root_code),
             _call((str(deco), "wrapped_func"), (str(model), "forward", "Model.forward", 6), root_code)]
    calls = [replace(calls[0], caller_line=8), replace(calls[1], caller_line=17)]
    function = "L['func'].__closure__[0].cell_contents"
    compile = Compile("0/0", 0, 0, 0, co_name="wrapper", co_filename=str(deco), co_firstlineno=6, guards=[
        _guard("EQUALS_MATCH", f"{function}.__defaults__[0]", f"{function}.__defaults__[0] == 2", "int"),
        _guard("LENGTH_CHECK", f"{function}.__defaults__", f"len({function}.__defaults__) == 1", "tuple"),
        _guard("EQUALS_MATCH", "L['func'].__closure__[1].cell_contents",
               "L['func'].__closure__[1].cell_contents == 'old'", "str"),
    ])
    observed = to_events(TraceFacts(compiles=[compile], inlines=calls), root, outside=[model])
    [link] = _Converter(TraceFacts(inlines=calls), ProjectFiles(root, outside=[model])).links.values()
    assert link.function == function
    wraps = [(e.source, e.value, e.guard, e.location.line) for e in observed.events if e.action is Action.WRAP]
    assert wraps == [("L['k']", "2", "EQUALS_MATCH: L['k'] == 2", 8)]  # at forward's def line, not the wrapper's
    assert link.source(f"{function}.__kwdefaults__['scale']") == "L['scale']"
    assert link.source(f"{function}.__defaults__[1]") is None  # forward has one default


OTHER = '''
from deco import deprecate_kwarg


class Block:
    @deprecate_kwarg("old")
    def forward(self, x):
        return x


class Attention:
    @deprecate_kwarg("old")
    def forward(self, x):
        return x
'''


def test_each_compile_of_a_shared_wrapper_links_to_the_function_it_wraps_then(tmp_path: Path) -> None:
    """One wrapper code object (`deprecate_kwarg`'s `wrapped_func`) wraps many functions: each of its compiles
    is the frame of the function its closure holds in that compile, not of the first one seen."""
    root, deco, _ = _tree(tmp_path)
    other = deco.parents[1] / "pkg" / "other.py"
    other.write_text(OTHER)
    code = (str(deco), "wrapped_func", 14)
    calls = [replace(_call((str(deco), "wrapped_func"), (str(other), "forward", "Block.forward", 6), code),
                     compile_id="1/0"),
             replace(_call((str(deco), "wrapped_func"), (str(other), "forward", "Attention.forward", 12), code),
                     compile_id="2/0")]
    compiles = [Compile(cid, int(cid[0]), 0, 0, co_name="wrapped_func", co_filename=str(deco), co_firstlineno=14)
                for cid in ("1/0", "2/0")]
    converter = _Converter(TraceFacts(compiles=compiles, inlines=calls), ProjectFiles(root, outside=[other]))
    shown = "../env/lib/site-packages/pkg/other.py"
    assert [converter.entry_of(c) for c in compiles] == [(f"{shown}:Block.forward", "wrapped_func"),
                                                         (f"{shown}:Attention.forward", "wrapped_func")]
    # asked without naming a compile, a code object linked to two functions names neither
    assert converter.entry_for_code(*code) is None
