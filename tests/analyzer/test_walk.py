"""The symbolic walk: Sources, guards, inlining, breaks and recompiles as Dynamo makes them."""

from __future__ import annotations

from collections.abc import Callable
import textwrap
from pathlib import Path

from vtlint.analyzer import Prediction
from vtlint.check import run_check
from vtlint.config import Config
from vtlint.trace import Action, Event

Predict = Callable[..., Prediction]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def of(prediction: Prediction, action: Action) -> list[Event]:
    return [e for e in prediction.events if e.action is action]


def guards(prediction: Prediction) -> dict[str, str | None]:
    return {e.source or "": e.guard for e in of(prediction, Action.WRAP)}


def test_the_article_program_end_to_end() -> None:
    config = Config(root=EXAMPLES.parent)
    result = run_check([EXAMPLES], config, use_cache=False)
    seed = [f for f in result.findings if f.location.path == "examples/seed.py"]
    by = {(f.code, f.source, f.location.line) for f in seed}
    assert ("VTL101", "L['n']", 20) in by and ("VTL101", "L['items'][0]", 20) in by
    assert ("VTL102", "L['items']", 20) in by and ("VTL101", "L['cfg'].scale", 20) in by
    assert ("VTL111", "L['n']", 29) in by  # g(x, 4, [1, 2])
    assert ("VTL111", "L['cfg'].scale", 30) in by  # cfg.scale = 5
    [inline] = [f for f in seed if f.code == "VTL301"]
    assert inline.location.line == 19 and "helper" in inline.message
    guard = {f.source: f.guard for f in seed if f.code == "VTL101"}
    assert guard == {"L['n']": "EQUALS_MATCH: L['n'] == 3", "L['items'][0]": "EQUALS_MATCH: L['items'][0] == 1",
                     "L['cfg'].scale": "EQUALS_MATCH: L['cfg'].scale == 2"}
    scale = next(f for f in seed if f.code == "VTL101" and f.source == "L['cfg'].scale")
    assert "dict(type(L['cfg']).__dict__)['scale']" in scale.message
    counter = [f for f in result.findings if f.location.path == "examples/step_counter.py" and f.code == "VTL112"]
    assert [(f.location.line, f.source) for f in counter] == [(15, "L['self'].step")]
    assert "every call" in counter[0].message and "recompile_limit (8)" in counter[0].message
    assert counter[0].fix and "allow_unspec_int_on_nn_module" in counter[0].fix.description


def test_sources_for_globals_attributes_elements_and_bools(predict: Predict) -> None:
    source = """
        import torch

        class Cfg:
            def __init__(self):
                self.depth = 2
                self.use_bias = True

        CFG = Cfg()
        K = 1.5

        @torch.compile
        def f(x, opts, flag=False):
            y = x * CFG.depth + K
            if CFG.use_bias:
                y = y + opts["shift"]
            if flag:
                y = y * 2
            return y

        def main():
            f(torch.ones(2), {"shift": 4})
    """
    assert guards(predict({"m.py": source})) == {
        "G['CFG'].depth": "EQUALS_MATCH: G['CFG'].depth == 2",
        "G['K']": "EQUALS_MATCH: G['K'] == 1.5",
        "G['CFG'].use_bias": "TRUE_MATCH: G['CFG'].use_bias == True",
        "L['opts']['shift']": "EQUALS_MATCH: L['opts']['shift'] == 4",
        "L['flag']": "FALSE_MATCH: L['flag'] == False",
    }


def test_values_born_mid_trace_have_no_source(predict: Predict) -> None:
    source = """
        import torch

        @torch.compile
        def f(x):
            sizes = [1, 2]
            n = len(sizes) * 3
            return x * n + sizes[0]

        def main():
            f(torch.ones(2))
    """
    assert of(predict({"m.py": source}), Action.WRAP) == []


def test_unknown_stays_unknown(predict: Predict) -> None:
    source = """
        import torch

        @torch.compile
        def f(x, n):
            return x * n
    """
    # no call site, no default, no telling use: x and n may be tensors or ints, so no guard is invented
    assert of(predict({"m.py": source}), Action.WRAP) == []
    called = textwrap.dedent(source) + "\ndef main():\n    f(torch.ones(2), int(input()))\n"
    [wrap] = [e for e in of(predict({"n.py": called}), Action.WRAP) if e.location.path == "n.py"]
    # an int whose value only the run knows: the guard kind is certain, its value is not
    assert (wrap.source, wrap.guard_kind, wrap.guard, wrap.value) == ("L['n']", "EQUALS_MATCH", None, None)
    assert wrap.confidence == "medium"


def test_inlining_across_modules_carries_the_caller_sources(predict: Predict) -> None:
    files = {
        "helpers.py": "def scale(t, k):\n    return t * k\n",
        "main.py": "import torch\nfrom helpers import scale\n\n@torch.compile\ndef f(x, k):\n"
                   "    return scale(x, k)\n\ndef main():\n    f(torch.ones(2), 5)\n",
    }
    prediction = predict(files)
    [inline] = of(prediction, Action.INLINE)
    assert (inline.location.path, inline.location.line, inline.callee) == ("main.py", 6, "helpers.py:scale")
    [wrap] = of(prediction, Action.WRAP)
    assert (wrap.location.path, wrap.location.line, wrap.guard) == ("helpers.py", 2, "EQUALS_MATCH: L['k'] == 5")
    assert [r.location.line for r in wrap.chain] == [6]


def test_installed_packages_are_inlined_from_source_without_import(predict: Predict, tmp_path: Path,
                                                                   monkeypatch: object) -> None:
    site = tmp_path / "site-packages"
    (site / "thirdparty").mkdir(parents=True)
    (site / "thirdparty" / "__init__.py").write_text("raise RuntimeError('imported!')\n")
    (site / "thirdparty" / "ops.py").write_text("def double(t):\n    return t * 2\n")
    import sys

    monkeypatch.setattr(sys, "path", [str(site), *sys.path])  # type: ignore[attr-defined]
    source = "import torch\nfrom thirdparty.ops import double\n\n@torch.compile\ndef f(x):\n    return double(x)\n"
    [inline] = of(predict({"proj/m.py": source}), Action.INLINE)
    assert inline.callee == "thirdparty.ops.double" and inline.location.line == 6


def test_break_resumes_in_a_new_frame_and_loops_skip_the_frame(predict: Predict) -> None:
    source = """
        import torch

        @torch.compile
        def f(x, n):
            y = x * 2
            print("hi")
            return y * n

        @torch.compile
        def g(x, n):
            for i in range(2):
                print(i)
                x = x * n
            return x

        def main():
            f(torch.ones(2), 3)
            g(torch.ones(2), 3)
    """
    prediction = predict({"m.py": source})
    [wrap] = of(prediction, Action.WRAP)
    assert wrap.entry == "m.py:f" and wrap.frame == "torch_dynamo_resume_in_f_at_6"
    breaks = {e.entry: e for e in of(prediction, Action.GRAPH_BREAK)}
    assert breaks["m.py:f"].detail["resume"] == "torch_dynamo_resume_in_f_at_6"
    assert breaks["m.py:g"].detail["frame_skipped"] is True
    frames = {e.entry: e.detail for e in of(prediction, Action.FRAME)}
    assert frames["m.py:f"]["graph_count"] == 2 and frames["m.py:f"]["graph_break_count"] == 1
    assert frames["m.py:g"]["graph_count"] == 0 and frames["m.py:g"]["frame_skipped"] is True


def test_break_inside_an_inlined_helper(predict: Predict) -> None:
    source = """
        import torch

        def noisy(t, k):
            print("inside")
            return t * k

        @torch.compile
        def f(x, k):
            return noisy(x + k, k)

        def main():
            f(torch.ones(2), 2)
    """
    prediction = predict({"m.py": source})
    [brk] = of(prediction, Action.GRAPH_BREAK)
    assert brk.location.line == 4 and [r.location.line for r in brk.chain] == [9]
    frames = {e.entry for e in of(prediction, Action.FRAME)}
    assert frames == {"m.py:f", "m.py:noisy"}  # the helper is compiled as its own frame
    assert ("m.py:noisy", "L['k']", 5) in {(e.entry, e.source, e.location.line) for e in of(prediction, Action.WRAP)}


def test_recompile_hazards_name_the_changing_sites(predict: Predict) -> None:
    source = """
        import torch

        TEMPERATURE = 1.0

        @torch.compile
        def sample(x, training):
            if training:
                return x / TEMPERATURE
            return x

        def main():
            global TEMPERATURE
            x = torch.ones(2)
            sample(x, True)
            sample(x, False)
            TEMPERATURE = 0.5
            sample(x, True)
    """
    recompiles = {(e.source, e.location.line): e for e in of(predict({"m.py": source}), Action.RECOMPILE)}
    assert set(recompiles) == {("L['training']", 15), ("G['TEMPERATURE']", 16)}
    assert "every distinct value" in recompiles[("L['training']", 15)].detail["reason"]
    assert recompiles[("G['TEMPERATURE']", 16)].related[0].location.line == 8


def _breaks_and_graphs(prediction: Prediction, path: str = "m.py") -> tuple[set[tuple[int, str | None]], int]:
    """The breaks (line, id) in `path` and the graphs of its entries (earlier files stay in the project)."""
    found = {(e.location.line, e.gb_id) for e in of(prediction, Action.GRAPH_BREAK) if e.location.path == path}
    return found, sum(int(e.detail["graph_count"]) for e in of(prediction, Action.FRAME) if e.location.path == path)


def test_raises_breaks_only_when_they_leave_the_frame_for_sure(predict: Predict) -> None:
    source = """
        import torch

        @torch.compile
        def left(x):
            y = x + 1
            raise ValueError("bad")

        @torch.compile
        def maybe(x, limit):
            if x.dim() > limit:
                raise ValueError("unknown")
            return x * 2

        @torch.compile
        def caught(x):
            try:
                raise KeyError("k")
            except ValueError:
                return x
            except KeyError:
                return x - 1
    """
    prediction = predict({"m.py": source})
    by_entry = {e.entry.rpartition(":")[2]: e for e in of(prediction, Action.GRAPH_BREAK)}
    assert set(by_entry) == {"left"}
    assert by_entry["left"].gb_id == "GB0088" and by_entry["left"].detail["frame_skipped"]
    graphs = {e.entry.rpartition(":")[2]: e.detail["graph_count"] for e in of(prediction, Action.FRAME)}
    assert graphs == {"left": 0, "maybe": 1, "caught": 1}


def test_tensor_arguments_masks_and_data_pointers(predict: Predict) -> None:
    source = """
        import math
        import torch

        @torch.compile
        def f(x, y):
            a = int(x.sum())
            b = x / math.sqrt(y.sum())
            c = x[x > 0]
            if x.data_ptr() == y.data_ptr():
                return a
            return b + c
    """
    found, _ = _breaks_and_graphs(predict({"m.py": source}))
    assert found == {(6, "GB0124"), (7, "GB0033"), (8, "GB0036"), (9, "GB5976")}


def test_library_objects_methods_are_decided_by_their_type(predict: Predict) -> None:
    source = """
        import logging
        import torch

        logger = logging.getLogger(__name__)

        @torch.compile
        def f(x):
            y = x + 1
            logger.info("done")
            log = logging.getLogger("other")
            log.warning("again")
            return y
    """
    found, _ = _breaks_and_graphs(predict({"m.py": source}))
    # getLogger("other") in traced code breaks too (GB6215, measured: tests/golden_breaks/local_logger)
    assert found == {(9, "GB0291"), (10, "GB6215"), (11, "GB0291")}


def test_graph_counts_around_while_try_and_closures(predict: Predict) -> None:
    loop = """
        import torch

        @torch.compile
        def halve(x):
            x = x + 0
            while x.sum() > 10:
                x = x / 2
            return x.neg()
    """
    found, graphs = _breaks_and_graphs(predict({"loop.py": loop}), "loop.py")
    assert found == {(6, "GB0170")} and graphs == 3  # the prefix, the loop body, the code after the loop
    in_try = """
        import torch

        @torch.compile
        def attempt(x):
            y = x * 3
            try:
                print("trying")
            except RuntimeError:
                pass
            return y.sin()
    """
    found, graphs = _breaks_and_graphs(predict({"try.py": in_try}), "try.py")
    assert found == {(7, "GB0059")} and graphs == 0  # no resuming inside a try block
    factory = """
        import torch

        def make(scale):
            def report(y):
                print("scaled", scale)
                return y

            @torch.compile
            def model(x):
                return report(x * scale)

            return model

        model = make(3)
    """
    found, _ = _breaks_and_graphs(predict({"factory.py": factory}), "factory.py")
    assert found == {(5, "GB0059")}


def test_installed_files_get_their_import_names() -> None:
    from vtlint.analyzer.summary import module_name

    assert module_name("/opt/env/lib/python3.11/site-packages/tqdm/std.py") == "tqdm.std"
    assert module_name(".venv/lib/python3.11/site-packages/transformers/models/gpt2/__init__.py") == \
        "transformers.models.gpt2"
    assert module_name("/usr/lib/python3/dist-packages/yaml/loader.py") == "yaml.loader"
    assert module_name("pkg/sub/mod.py") == "pkg.sub.mod"


def test_none_default_without_a_call_in_sight_is_a_weak_guess(predict: Predict) -> None:
    source = """
        import torch

        @torch.compile
        def forward(x, mask=None, scale=2):
            if (mask is None) ^ (scale is None):
                import torch.compiler
                if not torch.compiler.is_compiling():
                    raise RuntimeError("eager only")
                return x * scale
            raise ValueError("mask and scale")

        @torch.compile
        def called(x, mask=None):
            if mask is None:
                return x
            return x * mask

        called(torch.ones(2))
    """
    prediction = predict({"m.py": source})
    wraps = {(e.entry.rpartition(":")[2], e.source): (e.guard, e.confidence) for e in of(prediction, Action.WRAP)}
    # a caller passing a tensor gets TENSOR_MATCH on L['mask'], not NONE_MATCH (measured): a guess
    assert wraps[("forward", "L['mask']")] == ("NONE_MATCH: L['mask'] is None", "low")
    assert wraps[("forward", "L['scale']")] == ("EQUALS_MATCH: L['scale'] == 2", "high")
    # `called` returns x: no op traced, so Dynamo skips its frame and installs no guard (golden no_op_frame_skipped)
    assert ("called", "L['mask']") not in wraps
    breaks = [e for e in of(prediction, Action.GRAPH_BREAK) if e.entry.endswith(":forward")]
    assert breaks == []  # is_compiling() is True while Dynamo traces: the raise never runs
    graphs = {e.entry.rpartition(":")[2]: e.detail["graph_count"] for e in of(prediction, Action.FRAME)}
    assert graphs == {"forward": 1, "called": 0}  # both of forward's paths are walked


def test_constants_assigned_on_unknown_paths_are_not_known_after_them(predict: Predict) -> None:
    source = """
        import torch

        @torch.compile
        def f(x, flags):
            action = "none"
            if "a" in flags:
                action = "raise"
            if action == "raise":
                raise ValueError("both names")
            if flags.get("warn") and not torch.compiler.is_compiling():
                print("warning")
            return x + 1
    """
    found, graphs = _breaks_and_graphs(predict({"m.py": source}))
    assert found == set() and graphs == 1  # the raise may not run; `and False` never prints


def test_a_none_default_first_argument_is_the_input_callers_pass(predict: Predict) -> None:
    """`forward(self, input_ids=None, attention_mask=None)` compiled with no call in sight: callers
    always pass the first argument (a tensor: TENSOR_MATCH, never `L['input_ids'] is None`); the
    others keep the `None` default as a low-confidence guess."""
    source = """
        import torch

        class Model(torch.nn.Module):
            def forward(self, input_ids=None, attention_mask=None):
                if attention_mask is None:
                    return input_ids * 2
                return input_ids * attention_mask

        torch.compile(Model())
    """
    prediction = predict({"m.py": source})
    wraps = {e.source: (e.guard_kind, e.confidence) for e in of(prediction, Action.WRAP)}
    assert "L['input_ids']" not in wraps
    assert wraps["L['attention_mask']"] == ("NONE_MATCH", "low")



GUESSED_BREAK = """
import threading
import torch

LOCK = threading.Lock()

@torch.compile
def f(x, model):
    if getattr(model, "hooks_installed", False):
        with LOCK:
            x = x + 1
    return x * 2

def main():
    f(torch.ones(3), object())
"""


def test_a_break_on_a_path_the_walk_only_guesses_is_a_note(tmp_path: Path) -> None:
    """`if getattr(model, "hooks_installed", False)` cannot be known statically: a break in its
    body (a lock taken) is predicted with low confidence and reported as a note, not a warning."""
    (tmp_path / "m.py").write_text(GUESSED_BREAK, encoding="utf-8")
    result = run_check([tmp_path], Config(root=tmp_path), use_cache=False)
    breaks = [f for f in result.findings if f.kind.value == "graph-break"]
    assert breaks, "the lock in the guessed branch is still predicted"
    assert all(f.confidence == "low" and f.level.value == "note" for f in breaks)
    assert all("cannot tell runs" in f.message for f in breaks)


def test_an_argument_typed_only_by_its_annotation_has_unknown_attribute_values(predict: Predict) -> None:
    """`Net(cfg)` built where the walk cannot see the config: `cfg: Config` makes it a Config whose
    methods are known but whose values are not (the class default 12 is not what the run passes)."""
    prediction = predict({"m.py": """
        import torch
        from torch import nn

        class Config:
            depth: int = 12

            def scale(self):
                return 2

        class Net(nn.Module):
            def __init__(self, cfg: Config):
                super().__init__()
                self.cfg = cfg

            def forward(self, x):
                return x * self.cfg.depth * self.cfg.scale()
    """}, entry_points=("m.py:Net.forward",))
    wraps = {e.source: e for e in prediction.events if e.action is Action.WRAP}
    depth = wraps["L['self'].cfg.depth"]  # an int field: guarded, its value unknown
    assert depth.value is None and depth.guard_kind == "EQUALS_MATCH", "a class default is not the value the run passes"
    inlined = {e.callee for e in prediction.events if e.action is Action.INLINE}
    assert "m.py:Config.scale" in inlined


def test_a_config_imported_from_another_module_is_known_by_its_declared_fields(predict: Predict) -> None:
    """`LlamaModel(config)` with `config: LlamaConfig` from `configuration_llama.py`, loaded from disk
    where the walk cannot see: each declared field is a value of its type, so its read in traced code
    is a baked constant. Sizes and rates are the checkpoint's (unknown); a flag or a mode is the class
    default, which picks the code path (`is_decoder: bool = False` leaves the cross-attention out)."""
    prediction = predict({"configuration_m.py": """
        from dataclasses import dataclass

        @dataclass
        class MConfig:
            eps: float = 1e-6
            n_layers: int = 12
            dropout: float | int = 0.1
            is_decoder: bool = False
            act: str = "gelu"
            pad_id: int | None = None
    """, "modeling_m.py": """
        import torch
        from torch import nn
        from .configuration_m import MConfig

        class Net(nn.Module):
            def __init__(self, config: MConfig):
                super().__init__()
                self.config = config
                self.eps = config.eps
                self.cross = nn.Linear(4, 4) if config.is_decoder else None

            def forward(self, x):
                if self.config.is_decoder:
                    x = self.cross(x)
                x = x * self.eps + self.config.dropout
                if self.config.act == "gelu":
                    x = torch.nn.functional.gelu(x)
                return x
    """}, entry_points=("modeling_m.py:Net.forward",))
    wraps = {e.source: e for e in prediction.events if e.action is Action.WRAP}
    assert wraps["L['self'].eps"].value is None and wraps["L['self'].eps"].guard_kind == "EQUALS_MATCH"
    assert wraps["L['self'].config.dropout"].guard_kind == "EQUALS_MATCH"
    assert wraps["L['self'].config.is_decoder"].guard_kind == "FALSE_MATCH"
    assert wraps["L['self'].config.act"].value == "'gelu'"
    assert not any("cross" in (s or "") for s in wraps), "the branch the default flag leaves out is not walked"


def test_a_global_set_by_a_function_declared_to_return_a_bool_is_a_bool(predict: Predict) -> None:
    """`_is_npu = is_torch_npu_available()` at module level, the function declared `-> bool`: whatever
    it returns on the user's machine, reading it in traced code bakes a bool (TRUE/FALSE_MATCH)."""
    prediction = predict({"m.py": """
        import importlib.util
        import torch

        def is_npu_available() -> bool:
            return importlib.util.find_spec("torch_npu") is not None

        _is_npu = is_npu_available()

        @torch.compile
        def f(x):
            if _is_npu:
                return x.bool()
            return x + 1

        def run():
            f(torch.ones(2))
    """})
    wraps = {e.source: e for e in prediction.events if e.action is Action.WRAP}
    assert wraps["G['_is_npu']"].guard_kind in ("TRUE_MATCH", "FALSE_MATCH")


def test_a_comprehension_filtered_by_an_undecidable_condition_has_an_unknown_length(predict: Predict) -> None:
    """`[k for k, v in flags.items() if v]` with a flag the walk cannot read: how many are kept is not
    known, so `if len(kept) > 0:` may go either way and a break behind it is a guess, not a finding
    (transformers' output capturing: a lock taken only when some output is recorded)."""
    prediction = predict({"m.py": """
        import random
        import torch

        @torch.compile
        def f(x, flags):
            kept = [k for k, v in flags.items() if v]
            if len(kept) > 0:
                print("recording", kept)
            return x + 1

        def run():
            f(torch.ones(2), {"hidden": random.random() > 0.5, "attentions": False})
    """})
    breaks = [e for e in prediction.events if e.action is Action.GRAPH_BREAK]
    assert breaks and all(e.confidence == "low" and e.detail.get("guessed_path") for e in breaks)


def test_a_number_read_before_a_break_is_named_by_its_stack_slot(predict: Predict) -> None:
    """The resume function receives the operand stack: `x = t.item()` is `___stack0`, while in
    `print(f"loss {t.item():.4f}")` the callable and the f-string's first piece wait below it, so
    the number is `___stack2` (measured: benchmarks/recompiles gpt_lr_schedule, `___stack2 == 4.47`)."""
    prediction = predict({"m.py": """
        import torch

        @torch.compile
        def f(x):
            a = (x * 2).sum().item()
            y = x * a
            print(f"loss {(y * 3).sum().item():.4f}")
            return y

        def main():
            f(torch.ones(3))
    """})
    stacks = {e.source for e in prediction.events if e.action is Action.WRAP and "___stack" in (e.source or "")}
    assert stacks == {"L['___stack0']", "L['___stack2']"}


def test_the_script_that_builds_the_compiling_object_is_run(predict: Predict) -> None:
    """`run.py` builds a Trainer whose `__init__` compiles its own step: the script is the program,
    so the step's calls (and the loss scale that doubles) come from it."""
    files = {
        "trainer.py": textwrap.dedent("""
            import torch

            class Trainer:
                def __init__(self, scale):
                    self.scale = scale
                    self.step = torch.compile(self.train_step)

                def train_step(self, x, loss_scale):
                    return (x * loss_scale).sum()

                def fit(self, steps):
                    for i in range(steps):
                        self.step(torch.ones(2), self.scale * 2 ** (i // 2))
        """),
        "run.py": textwrap.dedent("""
            from trainer import Trainer

            def main():
                Trainer(1024.0).fit(4)

            if __name__ == "__main__":
                main()
        """),
    }
    prediction = predict(files)
    assert guards(prediction)["L['loss_scale']"] == "EQUALS_MATCH: L['loss_scale'] == 1024.0"
    [change] = [e for e in of(prediction, Action.RECOMPILE) if e.source == "L['loss_scale']"]
    assert (change.location.path, change.location.line) == ("trainer.py", 13)  # the loop that changes it


def test_a_loop_over_tolist_passes_a_new_number_each_time(predict: Predict) -> None:
    """`for t in timesteps.tolist()`: the compiled call gets a tensor first, then ints it specializes."""
    source = """
        import torch

        @torch.compile(dynamic=False)
        def denoise(x, t):
            if not torch.is_tensor(t):
                t = torch.full((2,), t, dtype=torch.long)
            return x * t

        def main(steps):
            denoise(torch.ones(2), torch.ones(2, dtype=torch.long))
            for t in torch.arange(steps).tolist():
                denoise(torch.ones(2), t)

        if __name__ == "__main__":
            main(4)
    """
    prediction = predict({"m.py": source})
    [change] = [e for e in of(prediction, Action.RECOMPILE) if e.source == "L['t']"]
    assert "every distinct value" in change.detail["reason"]


def test_importing_a_module_runs_its_registering_decorators(predict: Predict) -> None:
    """`@register_activation("silu")` fills the registry when model.py is imported: the block the
    script builds in another module reads it, and its compiled forward inlines the registered function."""
    prediction = predict({
        "model.py": """
            import torch
            import torch.nn.functional as F

            ACTIVATIONS = {}

            def register_activation(name):
                def deco(fn):
                    ACTIVATIONS[name] = fn
                    return fn
                return deco

            @register_activation("silu")
            def _silu(x):
                return F.silu(x)

            class Mixer(torch.nn.Module):
                def __init__(self, act):
                    super().__init__()
                    self.act = ACTIVATIONS[act]
                    self.proj = torch.nn.Linear(4, 4)

                def forward(self, x):
                    return self.act(self.proj(x))
        """,
        "train.py": """
            import torch
            from model import Mixer

            def main():
                model = torch.compile(Mixer("silu"))
                model(torch.ones(2, 4))

            if __name__ == "__main__":
                main()
        """,
    })
    inlined = {(e.location.path, e.location.line, e.callee) for e in of(prediction, Action.INLINE)}
    assert ("model.py", 23, "model.py:_silu") in inlined


def test_registry_filled_at_construction_decides_the_traced_branch(predict: Predict) -> None:
    """transformers' `_CAN_RECORD_REGISTRY`: a dict subclass keyed by `str(model.__class__)`, filled in
    `__init__`, read back in `forward`; the lock behind the empty registry entry is never entered."""
    source = """
        import threading

        import torch
        import torch.nn as nn


        class _Registry(dict):
            def __setitem__(self, model, flags):
                super().__setitem__(str(model.__class__), flags)

            def get(self, model):
                return super().get(str(model.__class__)) or {}


        REGISTRY = _Registry()
        _lock = threading.Lock()


        class Net(nn.Module):
            _flags = {"hidden_states": 1}

            def __init__(self):
                super().__init__()
                REGISTRY[self] = self._flags
                self.output_hidden_states = False

            def forward(self, x):
                wanted = {k: getattr(self, f"output_{k}", False) for k in REGISTRY.get(self)}
                if len({k: [] for k, v in wanted.items() if v}) > 0:
                    with _lock:
                        x = x + 1
                return x * 2


        def main():
            torch.compile(Net())(torch.randn(2, 4))
    """
    prediction = predict({"reg.py": source})
    assert of(prediction, Action.GRAPH_BREAK) == []
    assert guards(prediction)["L['self'].output_hidden_states"] == "FALSE_MATCH: L['self'].output_hidden_states == False"


def test_registry_filled_by_a_class_decorator_builds_the_submodules(predict: Predict) -> None:
    """`LAYER_REGISTRY[name] = cls` in a decorator runs when `layers` is imported; the registry read in
    `model.py`'s constructor is that filled dict, so the compiled step inlines the registered layer."""
    layers = """
        import torch.nn as nn

        LAYER_REGISTRY = {}


        def register_layer(name):
            def deco(cls):
                LAYER_REGISTRY[name] = cls
                return cls
            return deco


        @register_layer("gine")
        class GINEConv(nn.Module):
            def __init__(self, dim, eps=1e-5):
                super().__init__()
                self.norm = nn.LayerNorm(dim, eps=eps)

            def forward(self, h):
                return self.norm(h)
    """
    model = """
        import torch.nn as nn

        from layers import LAYER_REGISTRY


        class Net(nn.Module):
            def __init__(self, kind):
                super().__init__()
                self.layers = nn.ModuleList([LAYER_REGISTRY[kind](8) for _ in range(2)])

            def forward(self, h):
                for layer in self.layers:
                    h = layer(h)
                return h
    """
    train = """
        import torch

        from model import Net


        def main():
            model = Net("gine")

            @torch.compile
            def step(x):
                return model(x)

            step(torch.randn(2, 8))
    """
    prediction = predict({"layers.py": layers, "model.py": model, "train.py": train})
    inlined = {(e.location.path, e.callee) for e in of(prediction, Action.INLINE)}
    assert ("model.py", "layers.py:GINEConv.forward") in inlined
    assert guards(prediction)["L['model'].layers._modules['1'].norm.eps"] == (
        "EQUALS_MATCH: L['model'].layers._modules['1'].norm.eps == 1e-05")


def test_constant_checks_prune_dead_branches(predict: Predict) -> None:
    """any() over the module tree, f-strings, numbers ABCs and dtype aliases fold to constants, so only
    the arm Dynamo takes is read."""
    source = """
        import numbers

        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)
                self.dead = 2
                self.live = 3

            def forward(self, x, dt, width):
                if any(m is None for m in self.modules()) or f"w{width}" != "w4":
                    x = x * self.dead
                if dt is torch.half and isinstance(width, numbers.Integral):
                    x = x * self.live
                return self.lin(x)


        def main():
            torch.compile(Net())(torch.randn(2, 4), torch.float16, 4)
    """
    read = set(guards(predict({"net.py": source})))
    assert "L['self'].live" in read and "L['self'].dead" not in read


def test_a_device_type_is_one_the_project_names(predict: Predict) -> None:
    """`x.device.type` is "cpu" unless the project names another device type as a word of its own
    (`input` does not name "npu"); a list of every type it can be decides `in`, and a rank known from
    the sizes decides `x.dim()`."""
    source = """
        import torch


        class Gate(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fast = 2
                self.slow = 3
                self.odd = 5

            def forward(self, input):
                if (input * 2).dim() != 2:  # elementwise: the rank stays
                    return input * self.odd
                if input.device.type in ["cpu", "cuda", torch.utils.backend_registration._privateuse1_backend_name]:
                    return input * self.fast
                return input * self.slow


        def main():
            torch.compile(Gate())(torch.randn(2, 4))
    """
    read = set(guards(predict({"gate.py": source})))
    assert "L['self'].fast" in read and "L['self'].slow" not in read and "L['self'].odd" not in read
    elsewhere = set(guards(predict({"gate.py": source, "run.py": "DEVICE = 'mps'\n"})))
    assert {"L['self'].fast", "L['self'].slow"} <= elsewhere
