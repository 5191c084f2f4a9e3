"""Decisions on tensor methods by their receiver, attribute stores on tensors, class statements, contextlib's
managers, explicit debugging breaks and disabled methods. Each is measured on torch 2.13 by a golden
program of tests/golden_breaks (named in the test)."""

from __future__ import annotations

from vtlint.analyzer import breaks
from vtlint.config import DynamoSettings

S = DynamoSettings()
T, C = breaks.TENSOR, "ConstantVariable"


def test_set_breaks_only_with_a_storage_offset_and_sizes() -> None:  # set_storage_offset, ok_set_from_tensor
    assert breaks.decide_tensor_method("set_", S, breaks.Arguments((T, C, C))).gb_id == "GB0128"
    assert not breaks.decide_tensor_method("set_", S, breaks.Arguments((T,))).breaks


def test_retain_grad_is_refused_on_read_and_skips_the_frame() -> None:  # retain_grad_call
    decision = breaks.decide_tensor_method("retain_grad", S)
    assert decision.gb_id == "GB0108" and decision.skips_frame
    assert not breaks.decide_tensor_method("resize_as_", S, breaks.Arguments((T,))).skips_frame


def test_requires_grad_of_an_input_by_its_flag() -> None:  # requires_grad_input
    assert breaks.decide_tensor_method("requires_grad_", S, sourced=True, requires_grad=False).gb_id == "GB0125"
    assert breaks.decide_tensor_method("requires_grad_", S, sourced=True).confidence == "medium"
    assert not breaks.decide_tensor_method("requires_grad_", S, sourced=True, requires_grad=True).breaks
    off = breaks.Arguments((C,), constants=((0, False),))
    assert not breaks.decide_tensor_method("requires_grad_", S, off, sourced=True, requires_grad=False).breaks
    # an intermediate: what breaks is returning it (GB8985, requires_grad_intermediate)
    assert breaks.decide_tensor_method("requires_grad_", S).gb_id == "GB8985"


def test_attribute_stores_on_tensors() -> None:  # requires_grad_store, data_store_*, ok_data_store_input
    def store(name: str, sourced: bool, dtype: str | None, new_dtype: str | None) -> str | None:
        decision = breaks.decide_tensor_store(name, sourced=sourced, dtype=dtype, new_dtype=new_dtype)
        return decision.gb_id if decision is not None else None

    assert store("requires_grad", True, None, None) == "GB0206"
    assert store("data", False, "float32", "float32") == "GB0056"
    assert store("data", True, "float32", "float64") == "GB0220"
    assert store("data", True, "float32", "float32") is None
    assert store("data", True, None, "float64") is None
    assert store("grad", False, None, None) is None


def test_class_statement_and_contextlib_managers() -> None:  # class_in_forward, redirect_stdout_block
    assert breaks.decide_class_statement(S).gb_id == "GB8977"
    assert breaks.decide_class_statement(DynamoSettings(enable_trace_load_build_class=True)) is None
    redirect = breaks.decide_context_manager("contextlib.redirect_stdout", S)
    assert redirect.gb_id == "GB0262" and redirect.also == (breaks.UNSUPPORTED_CTX,) and redirect.partial
    assert not breaks.decide_context_manager("contextlib.nullcontext", S).breaks


def test_explicit_breaks_disabled_methods_and_deepcopy() -> None:  # step_unsupported_call, disabled_method, ...
    step = breaks.decide_function("torch._dynamo.step_unsupported", S)
    assert step.gb_id == "GB0275" and step.skips_frame
    assert not breaks.decide_function("torch._dynamo.graph_break", S).skips_frame
    assert breaks.decide_disabled_call("Net.log_stats", method=True).gb_id == "GB0099"
    assert breaks.decide_disabled_call("log_stats").gb_id == "GB0098"
    assert breaks.decide_function("copy.deepcopy", S, arguments=breaks.Arguments((T,))).gb_id == "GB4198"
    assert not breaks.decide_function("copy.deepcopy", S, arguments=breaks.Arguments(("ConstDictVariable",))).breaks


def test_ndarray_attributes_and_methods() -> None:  # ndarray_attributes, ndarray_tobytes, ok_ndarray_shape
    dtype = breaks.decide_ndarray_attribute("dtype")
    assert dtype is not None and dtype.gb_id == "GB0157" and dtype.partial
    tobytes = breaks.decide_ndarray_attribute("tobytes")
    assert tobytes is not None and tobytes.gb_id == "GB0158" and not tobytes.partial
    assert breaks.decide_ndarray_attribute("shape") is None and breaks.decide_ndarray_attribute("sum") is None


def test_sort_by_tensor_keys() -> None:  # sort_by_tensor_key, ok_sort_by_constant_key
    decision = breaks.decide_sort_keys()
    assert decision.gb_id == "GB0207" and not decision.skips_frame and not decision.partial


def test_fake_id_comparison_and_class_assignment() -> None:  # id_of_container_compare, class_reassigned
    fake = breaks.decide_fake_id_compare()
    assert fake.gb_id == "GB9316" and fake.skips_frame
    assert [breaks.registry().id_of(t) for t in fake.also] == ["GB4501"]
    assert breaks.decide_class_assignment().gb_id == "GB4271"


def test_refused_class_constructors() -> None:  # pydantic_config_inside, ok_dataclass_config
    pydantic = breaks.decide_class_call(["pydantic.dataclasses.dataclass"])
    assert pydantic is not None and pydantic.gb_id == "GB3383"
    assert breaks.decide_class_call(["dataclasses.dataclass", "functools.total_ordering"]) is None


def test_complex_parts_and_named_loggers() -> None:  # tensor_complex_store, logger_by_name, ok_logger_root
    def store(name: str) -> str | None:
        decision = breaks.decide_tensor_store(name, sourced=False, dtype="complex64", new_dtype="float32")
        return decision.gb_id if decision is not None else None

    assert store("real") == store("imag") == "GB0058"
    named = breaks.Arguments(("ConstantVariable",), constants=((0, "noisy"),))
    assert breaks.decide_function("logging.getLogger", S, arguments=named).gb_id == "GB6215"
    assert not breaks.decide_function("logging.getLogger", S, arguments=breaks.Arguments()).breaks


def test_failing_assert_in_try_and_ndarray_version() -> None:  # assert_caught_in_try, ndarray_version
    failing = breaks.decide_failing_assert()
    assert failing.gb_id == "GB0034" and failing.skips_frame
    version = breaks.decide_ndarray_attribute("__version__")
    assert version is not None and version.gb_id == "GB0159" and version.partial


def test_uniform_from_keyword_and_profiler_objects() -> None:  # uniform_from_keyword, ok_record_function_object
    assert breaks.decide_tensor_method("uniform_", S, breaks.Arguments((), (("from", C), ("to", C)))).gb_id \
        == "GB0110"
    assert not breaks.decide_tensor_method("uniform_", S, breaks.Arguments((C, C))).breaks
    for name in ("torch.profiler.record_function", "torch.profiler.profile"):
        assert not breaks.decide_function(name, S, arguments=breaks.Arguments((C,))).breaks, name


def test_step_unsupported_under_fullgraph() -> None:  # step_unsupported_fullgraph
    full = breaks.decide_function("torch._dynamo.step_unsupported", DynamoSettings(fullgraph=True))
    assert full.gb_id == "GB0284" and full.skips_frame
    assert breaks.decide_function("torch._dynamo.step_unsupported", S).gb_id == "GB0275"
