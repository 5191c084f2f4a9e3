"""The structured-trace parser on traces captured from torch 2.13 (no torch needed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vtlint.runtime.structured_trace import (
    Kernel,
    UnsupportedTorchVersion,
    check_torch_version,
    literal_in_kernels,
    parse_guard_tree,
    parse_recompile_reasons,
    parse_trace_dir,
)


def _guards(compile):
    return {g.spelled for g in compile.guards}


def test_seed_guards_and_recompile_reasons(trace_fixture):
    trace, _ = trace_fixture("examples")
    facts = parse_trace_dir(trace)
    assert facts.torch_version == "2.13.0+cpu"
    assert facts.problems == []
    seed = [c for c in facts.compiles if c.co_name == "f"]
    assert [c.compile_id for c in seed] == ["0/0", "0/1", "0/2"]
    assert {
        "EQUALS_MATCH: L['n'] == 3",
        "LENGTH_CHECK: len(L['items']) == 2",
        "EQUALS_MATCH: L['items'][0] == 1",
        "EQUALS_MATCH: dict(type(L['cfg']).__dict__)['scale'] == 2",
    } <= _guards(seed[0])
    n_guard = next(g for g in seed[0].guards if g.text == "L['n'] == 3")
    assert (n_guard.source, n_guard.type_name, n_guard.user_line, n_guard.user_function) == ("L['n']", "int", 20, "f")
    assert n_guard.user_file is not None and n_guard.user_file.endswith("seed.py")
    assert [(r.failed_compile_id, r.text) for r in seed[1].recompile_reasons] == [("0/0", "n == 3")]
    assert [(r.failed_compile_id, r.text) for r in seed[2].recompile_reasons][0] == (
        "0/1", "not ___dict_contains('scale', cfg.__dict__)")
    assert seed[1].recompile_reasons[0].user_stack[-1].line == 20


def test_step_counter_recompiles_with_hint(trace_fixture):
    trace, _ = trace_fixture("examples")
    facts = parse_trace_dir(trace)
    forward = [c for c in facts.compiles if c.co_name == "forward"]
    assert len(forward) == 3
    reason = forward[1].recompile_reasons[0]
    assert (reason.failed_compile_id, reason.text) == ("1/0", "self.step == 0")
    assert "allow_unspec_int_on_nn_module" in (reason.hint or "")


def test_pitfalls_graph_breaks(trace_fixture):
    trace, root = trace_fixture("examples")
    facts = parse_trace_dir(trace)
    breaks = {(Path(gb.filename).name, gb.line, gb.gb_type, gb.gb_id) for gb in facts.graph_breaks}
    assert breaks == {
        ("pitfalls.py", 8, "Data-dependent branching", "GB0170"),
        ("pitfalls.py", 16, "Failed to trace builtin operator", "GB0059"),
        ("pitfalls.py", 23, "Unsupported Tensor.item() call with capture_scalar_outputs=False", "GB0124"),
    }
    item = next(gb for gb in facts.graph_breaks if gb.gb_id == "GB0124")
    assert "capture_scalar_outputs" in item.explanation and item.hints
    assert [f.name for f in item.user_stack][-2:] == ["main", "scaled_loss"]
    assert {c.co_name for c in facts.compiles} >= {"torch_dynamo_resume_in_scaled_loss_at_23"}


def test_loop_break_nested_break_limit_and_reset(trace_fixture):
    trace, _ = trace_fixture("breaks")
    facts = parse_trace_dir(trace)
    assert facts.problems == []
    loop = next(gb for gb in facts.graph_breaks if gb.line == 10)
    assert (loop.gb_id, loop.frame_skipped, loop.also) == ("GB0170", True, (("graph break in loop", "GB7000"),))
    nested = next(gb for gb in facts.graph_breaks if gb.line == 4)
    assert [f.name for f in nested.user_stack][-2:] == ["nested", "helper"]
    limit = [c for c in facts.compiles if c.recompile_limit_hit]
    assert len(limit) == 1 and limit[0].co_name == "many" and limit[0].compile_id == "5/8"
    assert len(limit[0].recompile_reasons) == 8
    # torch._dynamo.reset() restarts compile ids: the second `nested` is a new generation
    assert [(c.generation, c.compile_id) for c in facts.compiles if c.co_name == "nested"] == [(0, "1/0"), (1, "0/0")]
    strict = next(gb for gb in facts.graph_breaks if gb.fullgraph)
    assert (strict.gb_id, strict.line, strict.frame_skipped) == ("GB0059", 29, True)


def test_inline_records(trace_fixture):
    trace, root = trace_fixture("examples")
    facts = parse_trace_dir(trace)
    calls = {(Path(c.caller_file).name, c.caller_line, c.callee_name) for c in facts.inlines}
    assert calls == {("seed.py", 19, "helper")}


def test_truncated_trace_keeps_what_came_before(trace_fixture):
    trace, _ = trace_fixture("examples")
    log = next(trace.glob("*.log"))
    text = log.read_text()
    cut = text.index("torch_dynamo_resume_in_noisy_at_16")
    log.write_text(text[:cut])
    facts = parse_trace_dir(trace)
    assert facts.problems, "a cut-off line must be reported"
    assert {c.co_name for c in facts.compiles} >= {"f", "forward", "normalize"}


def test_corrupted_lines_and_payloads_are_reported(tmp_path):
    log = tmp_path / "dedicated_log_torch_trace_x.log"
    log.write_text(
        'V1130 06:53:03.270000 1 torch/x.py:1] {"str": ["/p/a.py", 0]}\n'
        "garbage line\n"
        'V1130 06:53:03.270000 1 torch/x.py:1] {"dynamo_cpp_guards_str": {}, "frame_id": 0, '
        '"frame_compile_id": 0, "attempt": 0, "has_payload": "00000000000000000000000000000000"}\n'
        "\t+- RootGuardManager\n"
        'V1130 06:53:03.270000 1 torch/x.py:1] {"dynamo_start": {"stack": [{"line": 3, "name": "f", "filename": 0}]'
    )
    facts = parse_trace_dir(tmp_path)
    assert len(facts.problems) == 3
    assert any("checksum" in p for p in facts.problems) and any("damaged JSON" in p for p in facts.problems)


def test_unsupported_torch_version_is_named():
    for accepted in ("2.6.0", "2.11.0+cu130", "2.13.0+cpu", "2.14.1", "2.15.0+cu132"):
        check_torch_version(accepted)
    for refused in ("2.5.1", "2.16.0", "3.0.0"):
        with pytest.raises(UnsupportedTorchVersion, match=rf"torch {re.escape(refused)}; .* torch 2\.6 to 2\.15$"):
            check_torch_version(refused)


def test_guard_tree_with_hash_in_user_line_and_truncated_path():
    tree = (
        "TREE_GUARD_MANAGER:\n+- RootGuardManager\n"
        "| +- GuardManager: source=L['s'], accessed_by=FrameLocalsGuardAccessor(key='s', framelocals_idx=1), "
        "type=<class 'str'>, tag_safe=(False, False)\n"
        "| | +- EQUALS_MATCH: L['s'] == 'a'          # print(s)  # say it # loudly  # me/src/pkg/mod.py:7 in g\n"
        "| +- GuardManager: source=L['b'], accessed_by=FrameLocalsGuardAccessor(key='b', framelocals_idx=2), "
        "type=<class 'bool'>, tag_safe=(False, False)\n"
        "| | +- TRUE_MATCH: L['b'] == True  # if b:  # pkg/mod.py:9 in g (HINT: a hint (with parens))\n"
    )
    s, b = parse_guard_tree(tree)
    assert (s.kind, s.text, s.source, s.type_name) == ("EQUALS_MATCH", "L['s'] == 'a'", "L['s']", "str")
    assert (s.user_file, s.user_line, s.user_function, s.user_code) == ("me/src/pkg/mod.py", 7, "g", "print(s)  # say it # loudly")
    assert (b.kind, b.user_line, b.hint) == ("TRUE_MATCH", 9, "a hint (with parens)")


def test_the_entries_of_a_dict_guard_manager_have_their_own_source_and_type():
    """A ModuleList iterated: its `_modules` dict is a DictGuardManager whose values are
    `ValueManager: GuardManager: source=..._modules['0'], type=<class '...LayerNorm'>`
    (no accessor); the guards below belong to that value, not to the dict. A key's guards
    (`list(dict.keys(...))[0] == '0'`, the key order) belong to the dict, as Dynamo reports them."""
    tree = (
        "TREE_GUARD_MANAGER:\n+- RootGuardManager\n"
        "| +- DictGuardManager: source=L['self']._modules['layers']._modules, accessed_by=DictGetItemGuardAccessor"
        "('_modules'), type=<class 'dict'>, tag_safe=(False, False)\n"
        "| | +- KeyValueManager pair at index=0\n"
        "| | | +- KeyManager: GuardManager: source=list(dict.keys(L['self']._modules['layers']._modules))[0], "
        "type=<class 'str'>, tag_safe=(False, False)\n"
        "| | | | +- EQUALS_MATCH: list(dict.keys(L['self']._modules['layers']._modules))[0] == '0'  # x  # a.py:3 in f\n"
        "| | | +- ValueManager: GuardManager: source=L['self']._modules['layers']._modules['0'], "
        "type=<class 'torch.nn.modules.normalization.LayerNorm'>, tag_safe=(False, False)\n"
        "| | | | +- TYPE_MATCH: ___check_type_id(L['self']._modules['layers']._modules['0'], 94), "
        "type=<class 'torch.nn.modules.normalization.LayerNorm'>  # x = layer(x)  # a.py:4 in f\n"
        "| | | | +- GuardManager: source=L['self']._modules['layers']._modules['0'].eps, accessed_by="
        "DictGetItemGuardAccessor('eps'), type=<class 'float'>, tag_safe=(False, False)\n"
        "| | | | | +- EQUALS_MATCH: L['self']._modules['layers']._modules['0'].eps == 1e-05  # x  # b.py:9 in forward\n"
    )
    key, value, eps = parse_guard_tree(tree)
    assert (key.source, key.type_name) == ("L['self']._modules['layers']._modules", "dict")
    assert (value.kind, value.source, value.type_name) == (
        "TYPE_MATCH", "L['self']._modules['layers']._modules['0']", "torch.nn.modules.normalization.LayerNorm")
    assert (eps.source, eps.type_name) == ("L['self']._modules['layers']._modules['0'].eps", "float")


def test_recompile_reasons_single_string_or_json_list():
    one = "0/0: n == 3   # return n  # a/b.py:3 in f\nUser stack trace:\n  File \"/x/a/b.py\", line 3, in f\n    return n"
    (reason,) = parse_recompile_reasons(one, "0/1")
    assert (reason.failed_compile_id, reason.text, reason.user_line, reason.user_stack[0].filename) == ("0/0", "n == 3", 3, "/x/a/b.py")
    many = parse_recompile_reasons('["0/1: m == 2  # x  # a.py:1 in f", "0/0: n == 3  # x  # a.py:2 in f"]', "0/2")
    assert [(r.failed_compile_id, r.text) for r in many] == [("0/1", "m == 2"), ("0/0", "n == 3")]


def test_literal_in_kernels():
    body = "auto tmp1 = static_cast<float>(3.0);\nauto tmp5 = static_cast<float>(7.5);\nfor (x0 = 0L; x0 < 16L; x0++)"
    kernels = [Kernel("cpp_fused_add_0", "cpp", body)]
    assert literal_in_kernels("3", kernels)
    assert literal_in_kernels("7.5", kernels)
    assert literal_in_kernels("16", kernels)
    assert not literal_in_kernels("5", kernels)
    assert not literal_in_kernels("'relu'", kernels)


def test_graph_break_without_registry_ids():
    from vtlint.runtime.structured_trace import parse_graph_break

    text = ("Graph break in user code at /p/a.py:7\nReason: Unsupported: builtin: print [ConstantVariable] False\n"
            "User code traceback:\n  File \"/p/a.py\", line 7, in f\n    print(x)\n")
    gb = parse_graph_break(text, "0/0")
    assert (gb.filename, gb.line, gb.gb_id) == ("/p/a.py", 7, None)
    assert gb.gb_type == "Unsupported: builtin: print [ConstantVariable] False"
    assert [f.name for f in gb.user_stack] == ["f"]


def test_triton_output_code_kernels():
    from vtlint.runtime.structured_trace import parse_output_code

    code = (
        "# kernel path: /tmp/torchinductor/ab/cabc.py\n"
        "triton_poi_fused_add_mul_sin_0 = async_compile.triton('triton_poi_fused_add_mul_sin_0', '''\n"
        "import triton\nimport triton.language as tl\n\n@triton.jit\n"
        "def triton_poi_fused_add_mul_sin_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n"
        "    tmp1 = 3.0\n    tmp5 = 7.5\n''', device_str='cuda')\n\n\n"
        "triton_red_fused_sum_1 = async_compile.triton('triton_red_fused_sum_1', '''\n"
        "@triton.jit\ndef triton_red_fused_sum_1(in_ptr0, out_ptr0, xnumel, r0_numel):\n    pass\n''', device_str='cuda')\n"
    )
    out = parse_output_code(code, "0/0")
    assert [(k.name, k.kind) for k in out.kernels] == [
        ("triton_poi_fused_add_mul_sin_0", "triton"), ("triton_red_fused_sum_1", "triton")]
    assert literal_in_kernels("3", out.kernels) and literal_in_kernels("7.5", out.kernels)
