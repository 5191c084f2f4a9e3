"""The decisions API over the shipped torch 2.13 snapshot (no torch import)."""

from __future__ import annotations

import pytest

from vtlint.analyzer import breaks
from vtlint.config import DynamoSettings

pytestmark = pytest.mark.usefixtures("shipped")
S = DynamoSettings()


@pytest.mark.parametrize(
    ("qualname", "gb_id"),
    [
        ("time.time", "GB0007"),
        ("time.perf_counter", "GB0007"),
        ("random.random", "GB0007"),
        ("os.getpid", "GB0007"),
        ("warnings.warn", "GB0007"),
        ("tqdm.tqdm", "GB0007"),
        ("logging.Logger.info", "GB0291"),
        ("logging.Logger.warning", "GB0291"),
        ("print", "GB0059"),
        ("breakpoint", "GB0059"),
        ("torch._dynamo.graph_break", "GB0025"),
        ("torch._dynamo.skip_frame", "GB4297"),
    ],
)
def test_functions_that_break(qualname: str, gb_id: str) -> None:
    decision = breaks.decide_function(qualname, S)
    assert decision.action == "graph-break"
    assert decision.gb_id == gb_id
    assert decision.gb_type == breaks.registry().get(gb_id).gb_type


@pytest.mark.parametrize(
    ("qualname", "action", "vt"),
    [
        ("torch.sin", "graph-node", "TorchInGraphFunctionVariable"),
        ("torch.nn.functional.relu", "graph-node", "TorchInGraphFunctionVariable"),
        ("math.sqrt", "graph-node", "TorchInGraphFunctionVariable"),
        ("copy.deepcopy", "inline", "UserFunctionVariable"),
        ("inspect.signature", "constant", "InspectSignatureVariable"),
        ("numpy.sin", "graph-node", "NumpyVariable"),
        ("os.path.join", "inline", "UserFunctionVariable"),
        ("len", "constant", "BuiltinVariable"),
        ("isinstance", "constant", "BuiltinVariable"),
        ("sum", "constant", "PolyfilledFunctionVariable"),
    ],
)
def test_functions_that_do_not_break(qualname: str, action: str, vt: str) -> None:
    decision = breaks.decide_function(qualname, S)
    assert (decision.action, decision.variable_tracker) == (action, vt)
    assert decision.gb_id is None


def test_file_rules_follow_check_file() -> None:
    # torch.nn is in MOD_INLINELIST and MOD_SKIPLIST: an inlined call wins.
    assert breaks.decide_function("torch.nn.modules.module.Module.zero_grad", S).action == "inline"
    assert breaks.decide_function("torch.optim.lr_scheduler.StepLR.step", S).action == "graph-break"
    assert breaks.decide_function("torch.utils.data.default_collate", S).gb_id == "GB0007"
    assert breaks.decide_function("unittest.mock.patch", S).action == "graph-break"
    assert breaks.decide_function("zlib.crc32", S).action == "graph-break"
    third_party = breaks.decide_function("somelib.layers.attention", S)
    assert (third_party.action, third_party.confidence) == ("inline", "medium")


def test_defined_in_places_a_reexport() -> None:
    decision = breaks.decide_function("mylib.progress", S, defined_in="lib/site-packages/tqdm/std.py")
    assert decision.action == "graph-break"
    assert "tqdm" in decision.reason


def test_names_made_from_install_paths_are_library_names() -> None:
    decision = breaks.decide_function("home.u.venv.lib.python3.11.site-packages.tqdm.std.tqdm", S)
    assert (decision.action, decision.gb_id) == ("graph-break", "GB0007")


def test_private_definition_sites_of_public_functions() -> None:
    assert breaks.decide_function("numpy._core.umath.sin", S).variable_tracker == "NumpyVariable"
    assert breaks.decide_function("numpy._core.umath.sin", S).action == "graph-node"


def test_numpy_follows_trace_numpy() -> None:
    off = DynamoSettings(trace_numpy=False)
    assert breaks.decide_function("numpy.sin", off).gb_id == "GB0293"
    assert breaks.decide_tensor_method("numpy", off).gb_id == "GB0105"
    assert breaks.decide_tensor_method("numpy", S).action == "graph-node"


def test_tensor_methods() -> None:
    assert breaks.decide_tensor_method("item", S).gb_id == "GB0124"
    assert breaks.decide_tensor_method("item", DynamoSettings(capture_scalar_outputs=True)).action == "graph-node"
    assert breaks.decide_tensor_method("tolist", S).action == "graph-break"
    assert breaks.decide_tensor_method("nonzero", S).gb_id == "GB0036"
    assert breaks.decide_tensor_method("nonzero", DynamoSettings(capture_dynamic_output_shape_ops=True)).action == "graph-node"
    assert breaks.decide_tensor_method("backward", S).gb_id == "GB0123"
    assert breaks.decide_tensor_method("sum", S).action == "graph-node"
    assert breaks.decide_tensor_method("no_such_method", S).action == "unknown"


@pytest.mark.parametrize("construct", ["if", "while", "ternary", "and", "or"])
def test_branches_on_tensors_break(construct: str) -> None:
    decision = breaks.decide_branch(construct, S)
    assert (decision.gb_id, decision.gb_type) == ("GB0170", "Data-dependent branching")


def test_assert_on_tensor_does_not_break() -> None:
    assert breaks.decide_branch("assert", S).action == "graph-node"


def test_context_managers() -> None:
    assert breaks.decide_context_manager("torch.no_grad", S).action == "graph-node"
    assert breaks.decide_context_manager("torch.autocast", S).action == "graph-node"
    assert breaks.decide_context_manager("contextlib.nullcontext", S).action == "graph-node"
    assert breaks.decide_context_manager("threading.Lock", S).gb_id == "GB0142"
    assert breaks.decide_context_manager("open", S).gb_id == "GB0059"


def test_disabled_decorators() -> None:
    assert breaks.is_disabled_decorator("torch.compiler.disable")
    assert breaks.is_disabled_decorator("torch._dynamo.disable")
    assert not breaks.is_disabled_decorator("torch.compile")
    assert breaks.decide_disabled_call("helpers.h").gb_id == "GB0098"


def test_registry() -> None:
    reg = breaks.registry()
    assert len(reg) > 500
    assert reg.id_of("Data-dependent branching") == "GB0170"
    assert reg.lookup("graph break in loop").gb_id == "GB7000"
    assert reg.get("GB0170").hints
    # the registry's placeholder spellings are not types a user ever sees
    assert reg.get("GB0170").gb_type == "Data-dependent branching"
    assert "_gb_type" in reg.get("GB0170").aliases


def test_instance_type_leads_methods_to_their_decisions() -> None:
    assert breaks.instance_type("logging.getLogger") == "logging.Logger"
    assert breaks.decide_function(breaks.instance_type("logging.getLogger") + ".info", S).gb_id == "GB0291"
    sched = breaks.instance_type("torch.optim.lr_scheduler.StepLR")
    assert breaks.decide_function(f"{sched}.step", S).gb_id == "GB0008"
    assert breaks.instance_type("torch.sin") is None
    assert breaks.instance_type("math.pi") is None


def test_measured_calls_win_over_the_classification() -> None:
    # json.dumps is pure Python (inlined by default) but breaks inside the encoder
    decision = breaks.decide_function("json.dumps", S)
    assert (decision.action, decision.gb_id) == ("graph-break", "GB0156")
    assert decision.reason.startswith("measured:")
    assert breaks.decide_function("os.path.exists", S).gb_id == "GB0007"
    assert breaks.decide_function("copy.deepcopy", S).action == "inline"
