"""Dynamo's cache entries replayed over the calls in sight (analyzer/cache_entries.py), and the
eager-program facts it is fed with."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from vtlint.analyzer import Prediction
from vtlint.analyzer import values as V
from vtlint.analyzer.cache_entries import replay
from vtlint.analyzer.entries import Site
from vtlint.findings import Location
from vtlint.trace import Action, Event

Predict = Callable[..., Prediction]


def _site(line: int, **values: object) -> Site:
    return Site("train.py", line, 1, [], {k: V.const(v) for k, v in values.items()})


def _guard(name: str, value: object) -> Event:
    return Event(Action.WRAP, Location("train.py", 1), "train.py:f", source=f"L[{name!r}]", value=repr(value),
                 guard_kind="EQUALS_MATCH")


def _check(traced: list[Event], seed: Site, site: Site) -> list[Event]:
    """A guard fails when the call passes another value than the call that compiled the entry."""
    return [e.with_(action=Action.RECOMPILE, location=Location("train.py", site.line), detail={"once": False})
            for e in traced if site.kwargs[e.source[3:-2]].value != seed.kwargs[e.source[3:-2]].value]


def test_a_call_that_passes_an_older_entry_does_not_recompile() -> None:
    calls = [_site(1, flag=True), _site(2, flag=False), _site(3, flag=True), _site(4, flag=False)]
    run = replay(calls, [_guard("flag", True)], _check, lambda i: [_guard("flag", calls[i].kwargs["flag"].value)], 8)
    assert [e.seed for e in run.entries] == [0, 1]
    assert [(e.location.line, e.source) for e in run.reasons] == [(2, "L['flag']")]


def test_each_entry_reports_its_own_first_failing_guard() -> None:
    """The third call fails the newest entry on `real` and the first on `smoothing` (torch lists
    both: `- 0/1: ...`, `- 0/0: ...`); each compile guards what its own trace read."""
    calls = [_site(1, real=True, smoothing=0.1), _site(2, real=False, smoothing=0.0), _site(3, real=True, smoothing=0.0)]

    def compile_(index: int) -> list[Event]:
        call = calls[index].kwargs
        read = [_guard("real", call["real"].value)]
        return read + ([_guard("smoothing", call["smoothing"].value)] if call["real"].value else [])

    run = replay(calls, compile_(0), _check, compile_, 8)
    assert len(run.entries) == 3
    assert [(e.location.line, e.source) for e in run.reasons] == [
        (2, "L['real']"), (3, "L['real']"), (3, "L['smoothing']")]


def test_a_number_generalized_by_automatic_dynamic_stops_recompiling() -> None:
    calls = [_site(i, lr=0.1 / (i + 1)) for i in range(5)]

    def check(traced: list[Event], seed: Site, site: Site) -> list[Event]:
        return [e.with_(detail={"once": True}) for e in _check(traced, seed, site)]

    run = replay(calls, [_guard("lr", 0.1)], check, lambda i: [_guard("lr", calls[i].kwargs["lr"].value)], 8)
    assert len(run.entries) == 2 and len(run.reasons) == 1


def test_recompile_limit_stops_the_cache() -> None:
    calls = [_site(i, step=i) for i in range(12)]
    run = replay(calls, [_guard("step", 0)], _check, lambda i: [_guard("step", i)], 8)
    assert len(run.entries) == 8  # recompile_limit: the later calls run eagerly
    # each recompile names every older entry's failing guard; calls 8 to 11 compile nothing
    assert sorted({e.location.line for e in run.reasons}) == list(range(1, 8))


def test_a_module_compiled_whole_records_its_own_calls_only(predict: Predict) -> None:
    source = """
        import torch
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self, p):
                super().__init__()
                self.drop = nn.Dropout(p)

            def forward(self, x):
                return self.drop(x)

        def main():
            teacher, student = Net(0.1), Net(0.3)
            teacher_fwd = torch.compile(teacher)
            for _ in range(2):
                teacher_fwd(torch.ones(2))
                student(torch.ones(2))

        main()
    """
    prediction = predict({"train.py": source})
    assert not [e for e in prediction.events if e.action is Action.RECOMPILE]
    assert {e.value for e in prediction.events if e.source == "L['self'].drop.p"} == {"0.1"}


def test_module_tree_surgery_is_seen_by_the_compiled_forward(predict: Predict) -> None:
    """LoRA injection through named_modules()/named_children()/setattr with a target list from
    `str.split`, isinstance decided by the class, and a flag flipped on every adapter."""
    source = """
        import torch
        import torch.nn as nn

        class Adapter(nn.Module):
            def __init__(self, base):
                super().__init__()
                self.base = base
                self.enabled = True

            def forward(self, x):
                return self.base(x) * 2 if self.enabled else self.base(x)

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.ModuleDict(dict(proj=nn.Linear(4, 4), out=nn.Linear(4, 4)))

            def forward(self, x):
                return self.body.out(self.body.proj(x))

        def main():
            model = Net()
            for name, module in list(model.named_modules()):
                for child_name, child in list(module.named_children()):
                    if isinstance(child, nn.Linear) and child_name in "proj,fc".split(","):
                        setattr(module, child_name, Adapter(child))
            compiled = torch.compile(model)
            compiled(torch.ones(2, 4))
            for m in model.modules():
                if isinstance(m, Adapter):
                    m.enabled = False
            compiled(torch.ones(2, 4))

        main()
    """
    prediction = predict({"train.py": source})
    lines = textwrap.dedent(source).lstrip("\n").splitlines()
    forward = lines.index("        return self.body.out(self.body.proj(x))") + 1
    second_call = len(lines) - lines[::-1].index("    compiled(torch.ones(2, 4))")
    inlined = {(e.location.line, e.callee) for e in prediction.events if e.action is Action.INLINE}
    assert (forward, "train.py:Adapter.forward") in inlined
    assert not any(e.source and "body.out.enabled" in e.source for e in prediction.events)
    [recompile] = [e for e in prediction.events if e.action is Action.RECOMPILE]
    assert recompile.source == "L['self'].body.proj.enabled" and recompile.location.line == second_call
