"""The runtime part of the text report names each compiled entry, the wrapper
Dynamo compiled for it, and what it could not link, with the reason."""

from vtlint.runtime.summary import coverage_lines


def test_a_wrapper_entry_and_unlinked_code_are_named() -> None:
    runtime = {
        "harness": {"command": "python run.py", "exit_code": 0, "duration_s": 1.0},
        "compiles": 3,
        "entries": [{"entry": "model.py:Block.forward", "compiles": 1, "graph_count": 1,
                     "frames": {"wrapped_func": 1}, "via": {"wrapped_func": "instpkg/utils.py"}}],
        "unlinked": [{"code": "vendored", "file": "vendor/__init__.py", "compiles": 2,
                      "why": "it is outside the project and Dynamo inlined no project function from its own frame"}],
    }
    lines = coverage_lines(runtime)
    assert lines[1] == "  model.py:Block.forward: 1 compile, 1 graph (compiled as `wrapped_func` of instpkg/utils.py)"
    assert lines[2].startswith("  not linked: `vendored` of vendor/__init__.py, 2 compiles: it is outside the project")


def test_nothing_linked_says_why() -> None:
    runtime = {"harness": {}, "compiles": 1, "entries": [],
               "unlinked": [{"code": "wrapper", "file": "lib.py", "compiles": 1, "why": "no project function"}]}
    head, line = coverage_lines(runtime)
    assert head.endswith("exercised 0 compiled entries, 1 compile: the compiled code could not be linked to a project function:")
    assert line == "  not linked: `wrapper` of lib.py, 1 compile: no project function"
