"""Compiled code reached through a chain of decorator wrappers outside the project
(transformers: `can_return_tuple`'s `wrapper` -> `deprecate_kwarg`'s `wrapped_func` ->
`GPT2LMHeadModel.forward`) is linked to the project function at the end of the chain; an
installed package's file checked explicitly counts as project code, named as the static
pass names it (relative to the root)."""

from __future__ import annotations

from pathlib import Path

from vtlint.runtime.events import ProjectFiles, _Converter
from vtlint.runtime.structured_trace import InlineCall, TraceFacts

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
