"""Runtime facts -> events, on traces captured from torch 2.13 (no torch needed)."""

from __future__ import annotations

from vtlint.findings import Location
from vtlint.runtime.events import (
    compared_source,
    normalize_source,
    strip_local_scope,
    to_events,
    user_spelling_to_source,
    variable_tracker_for,
)
from vtlint.runtime.structured_trace import Guard, parse_trace_dir
from vtlint.trace import Action, Event


def _observed(trace_fixture, name):
    trace, root = trace_fixture(name)
    return to_events(parse_trace_dir(trace), root)


def _by(observed, action):
    return [e for e in observed.events if e.action is action]


def test_normalize_source():
    assert normalize_source("dict(type(L['cfg']).__dict__)['scale']") == "L['cfg'].scale"
    # an attribute of a base class (measured: `dict(type(L['self']).__mro__[1].__dict__)['flag'] == False`)
    assert normalize_source("dict(type(L['c']).__mro__[1].__dict__)['get_text_config'].__defaults__[1]") \
        == "L['c'].get_text_config.__defaults__[1]"
    assert normalize_source("L['self']._modules['linear']") == "L['self'].linear"
    assert normalize_source("L['self'].__dict__['_modules']['linear']._parameters['weight']") == "L['self'].linear.weight"
    assert normalize_source("L['self'].__dict__['step']") == "L['self'].step"
    assert normalize_source("___as_tensor(L['x'])") == "L['x']"
    assert normalize_source("___odict_getitem(L['d'], 'k')") == "L['d']['k']"
    assert normalize_source("G['helper'].__code__") == "G['helper']"
    assert normalize_source("G['cfg'].scale") == "G['cfg'].scale"


def test_user_spelling_round_trip():
    assert strip_local_scope("L['n'] == 3") == "n == 3"
    assert user_spelling_to_source("n == 3") == "L['n'] == 3"
    assert user_spelling_to_source("len(items) == 2") == "len(L['items']) == 2"
    assert user_spelling_to_source("self.step == 0") == "L['self'].step == 0"
    assert user_spelling_to_source("G['cfg'].scale == 2") == "G['cfg'].scale == 2"


def test_seed_wraps_recompiles_and_inline(trace_fixture):
    observed = _observed(trace_fixture, "examples")
    wraps = {e.source: e for e in _by(observed, Action.WRAP) if e.entry == "examples/seed.py:f"}
    n = wraps["L['n']"]
    assert (n.variable_tracker, n.guard_kind, n.guard, n.value) == ("ConstantVariable", "EQUALS_MATCH", "EQUALS_MATCH: L['n'] == 3", "3")
    assert (n.location.path, n.location.line, n.frame) == ("examples/seed.py", 20, "f")
    assert wraps["L['items']"].guard == "LENGTH_CHECK: len(L['items']) == 2"
    assert wraps["L['items']"].variable_tracker == "ListVariable"
    assert wraps["L['items'][0]"].guard == "EQUALS_MATCH: L['items'][0] == 1"
    assert wraps["L['cfg'].scale"].guard == "EQUALS_MATCH: L['cfg'].scale == 2"
    assert wraps["L['cfg']"].variable_tracker == "UserDefinedObjectVariable"
    assert wraps["L['x']"].variable_tracker == "TensorVariable"
    recompiles = {e.source: e for e in _by(observed, Action.RECOMPILE) if e.entry == "examples/seed.py:f"}
    assert recompiles["L['n']"].detail["failing_guard"] == "n == 3"
    assert recompiles["L['n']"].guard == "EQUALS_MATCH: L['n'] == 3"
    assert recompiles["L['cfg'].scale"].detail["failing_guard"] == "not ___dict_contains('scale', cfg.__dict__)"
    (inline,) = _by(observed, Action.INLINE)
    assert inline.key == ("inline", "examples/seed.py", 19, "helper")
    assert inline.callee == "examples/seed.py:helper" and inline.entry == "examples/seed.py:f"


def test_step_counter_entry_is_the_qualified_forward(trace_fixture):
    observed = _observed(trace_fixture, "examples")
    entry = "examples/step_counter.py:StepCounter.forward"
    step = next(e for e in _by(observed, Action.WRAP) if e.source == "L['self'].step")
    assert (step.entry, step.variable_tracker, step.guard) == (entry, "ConstantVariable", "EQUALS_MATCH: L['self'].step == 0")
    this = next(e for e in _by(observed, Action.WRAP) if e.source == "L['self']" and e.entry == entry)
    assert this.variable_tracker == "UnspecializedNNModuleVariable"
    assert not any("_modules" in (e.source or "") or "__dict__" in (e.source or "") for e in observed.events)
    recompile = next(e for e in _by(observed, Action.RECOMPILE) if e.entry == entry)
    assert recompile.source == "L['self'].step" and recompile.detail["recompiles"] == 2
    assert "allow_unspec_int_on_nn_module" in recompile.detail["hint"]
    assert observed.coverage[entry].compiles == 3


def test_graph_breaks_and_frames(trace_fixture):
    observed = _observed(trace_fixture, "examples")
    keys = {e.key for e in _by(observed, Action.GRAPH_BREAK)}
    assert keys == {
        ("graph-break", "examples/pitfalls.py", 8, "Data-dependent branching"),
        ("graph-break", "examples/pitfalls.py", 16, "Failed to trace builtin operator"),
        ("graph-break", "examples/pitfalls.py", 23, "Unsupported Tensor.item() call with capture_scalar_outputs=False"),
    }
    item = next(e for e in _by(observed, Action.GRAPH_BREAK) if e.gb_id == "GB0124")
    assert item.detail["resume"] == "torch_dynamo_resume_in_scaled_loss_at_23" and item.entry == "examples/pitfalls.py:scaled_loss"
    stack = next(e for e in _by(observed, Action.WRAP) if e.source == "L['___stack0']")
    assert stack.frame == "torch_dynamo_resume_in_scaled_loss_at_23" and stack.variable_tracker == "ConstantVariable"
    assert stack.detail["stack_value"].startswith("computed eagerly at line 23 before the graph break: `value = loss.item()")
    frames = {e.entry: e.detail for e in _by(observed, Action.FRAME)}
    assert frames["examples/seed.py:f"]["compiles"] == 3
    assert frames["examples/pitfalls.py:noisy"]["graph_count"] == 2
    assert frames["examples/pitfalls.py:noisy"]["graph_break_count"] == 1
    assert all(not e.location.path.startswith("/") for e in observed.events)


def test_loop_nested_fullgraph_and_limit(trace_fixture):
    observed = _observed(trace_fixture, "breaks")
    breaks = {(e.location.line, e.entry): e for e in _by(observed, Action.GRAPH_BREAK)}
    loop = breaks[(10, "prog.py:loopy")]
    assert loop.detail["in_loop"] and loop.detail["frame_skipped"]
    nested = breaks[(4, "prog.py:nested")]
    assert [(r.location.line, r.message.split(" (")[0]) for r in nested.chain] == [(17, "calls helper() here")]
    assert "torch_dynamo_resume_in_nested_at_17" in nested.detail["resume"]
    assert breaks[(29, "prog.py:strict")].detail["fullgraph"]
    many = observed.coverage["prog.py:many"]
    assert many.recompile_limit_hit and many.compiles == 9
    recompile = next(e for e in _by(observed, Action.RECOMPILE) if e.entry == "prog.py:many")
    assert recompile.source == "L['n']" and recompile.detail["recompiles"] == 8
    # a guard whose comment path was cut into the root still lands on the user's line
    k = next(e for e in _by(observed, Action.WRAP) if e.source == "L['k']" and e.frame == "nested")
    assert (k.location.path, k.location.line) == ("prog.py", 17)


def test_exercised(trace_fixture):
    observed = _observed(trace_fixture, "examples")
    here = Event(Action.WRAP, Location("examples/seed.py", 20), "examples/seed.py:f", source="L['n']")
    elsewhere = Event(Action.WRAP, Location("examples/other.py", 3), "examples/other.py:g", source="L['n']")
    never_guarded = here.with_(source="L['zzz'].depth")  # the entry compiled, the Source not in scope
    a_break = Event(Action.GRAPH_BREAK, Location("examples/seed.py", 20), "examples/seed.py:f")
    assert observed.exercised(here) and observed.exercised(here.with_(source="L['n'].real"))
    assert observed.exercised(a_break)
    assert not observed.exercised(elsewhere)
    assert not observed.exercised(never_guarded)
    # f recompiled on `n`: another change predicted there may hide behind that first failing guard
    assert not observed.exercised(Event(Action.RECOMPILE, Location("examples/seed.py", 30), "examples/seed.py:f",
                                        source="L['items'][0]"))


def test_the_source_a_failing_guard_compares() -> None:
    """A specialized number's LAMBDA_GUARD has no Source of its own: its text names it."""
    assert compared_source("clip_eps == 0.15000000000000002") == "L['clip_eps']"
    assert compared_source("L['lr'] == 0.05") == "L['lr']"
    assert compared_source("len(L['xs']) == 3") == "L['xs']"
    assert compared_source("L['logits'].stride()[0] != L['logits'].size()[1]") is None  # a relation of sizes
    assert compared_source("len(self._modules['main']._modules) != 7") is None  # Dynamo's bookkeeping


def test_the_defaults_of_torch_nn_module_methods_are_not_the_users() -> None:
    """`for p in model.parameters()` in traced code: Dynamo inlines nn.Module.parameters and guards its
    defaults (`dict(type(L['model']).__mro__[1].__dict__)['parameters'].__defaults__`); torch's own."""
    assert compared_source("L['model'].parameters.__defaults__[0] == True") is None
    assert compared_source("L['model'].forward.__defaults__[0] is None") == "L['model'].forward.__defaults__[0]"


def test_the_variable_tracker_of_a_guarded_value() -> None:
    """A constant whose value is checked is a ConstantVariable (baked); one only type-checked (a flag the
    frame hands on to a call that breaks) is no baked constant; a frozenset is a FrozensetVariable."""
    def tracker(kind: str, type_name: str, kinds: set[str]) -> str:
        return variable_tracker_for(Guard(kind, "L['flag']", "L['flag']", type_name), kinds)

    assert tracker("EQUALS_MATCH", "str", {"EQUALS_MATCH", "TYPE_MATCH"}) == "ConstantVariable"
    assert tracker("TRUE_MATCH", "bool", {"TRUE_MATCH"}) == "ConstantVariable"
    assert tracker("TYPE_MATCH", "bool", {"TYPE_MATCH"}) == "LazyVariableTracker"
    assert tracker("TYPE_MATCH", "NoneType", {"TYPE_MATCH"}) == "ConstantVariable"  # a None's type is its value
    assert tracker("TYPE_MATCH", "int", {"TYPE_MATCH"}) == "SymNodeVariable"  # automatic dynamic
    assert tracker("EQUALS_MATCH", "frozenset", {"EQUALS_MATCH"}) == "FrozensetVariable"
