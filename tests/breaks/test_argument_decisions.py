"""Decisions that read a call's arguments (`breaks.Arguments`): their kinds, constants, dtypes and
Sources. Each is measured on torch 2.13 by a golden program of tests/golden_breaks."""

from __future__ import annotations

from vtlint.analyzer import breaks
from vtlint.config import DynamoSettings

S = DynamoSettings()
T, C = breaks.TENSOR, "ConstantVariable"


def test_arguments_by_position_or_keyword() -> None:
    args = breaks.Arguments(kinds=(T, C), keywords=(("dim", C),), constants=((1, 2), ("dim", -1)), dtypes=((0, "int64"),))
    assert args.kind(0) == T and args.kind(None, "dim") == C and args.kind(2, "output_size") is None
    assert args.constant(1) == 2 and args.constant(None, "dim") == -1 and args.constant(0) is breaks.ABSENT
    assert args.dtype(0) == "int64" and len(args) == 3 and args.tensor_among()
    shifted = args.after_first()
    assert shifted.kinds == (C,) and shifted.constant(0) == 2 and shifted.dtype(0) is None


def test_dynamic_shape_ops_as_methods_and_functions() -> None:
    for name in ("nonzero", "unique", "masked_select", "argwhere", "bincount", "unique_consecutive"):
        assert breaks.decide_tensor_method(name, S).gb_id == "GB0036", name
        assert breaks.decide_function(f"torch.{name}", S, arguments=breaks.Arguments((T,))).gb_id == "GB0036"
    assert breaks.decide_function("torch.nn.functional.ctc_loss", S, arguments=breaks.Arguments((T,) * 4)).gb_id \
        == "GB0036"
    captured = DynamoSettings(capture_dynamic_output_shape_ops=True)
    assert breaks.decide_tensor_method("unique", captured).action == "graph-node"


def test_repeat_interleave_only_with_a_tensor_of_repeats() -> None:
    assert breaks.decide_tensor_method("repeat_interleave", S, breaks.Arguments((T,))).gb_id == "GB0036"
    assert not breaks.decide_tensor_method("repeat_interleave", S, breaks.Arguments((C,), (("dim", C),))).breaks
    with_size = breaks.Arguments((T,), (("output_size", C),))
    assert not breaks.decide_tensor_method("repeat_interleave", S, with_size).breaks
    assert breaks.decide_function("torch.repeat_interleave", S, arguments=breaks.Arguments((T, T))).gb_id == "GB0036"
    assert not breaks.decide_function("torch.repeat_interleave", S, arguments=breaks.Arguments((T, C))).breaks


def test_tolist_by_dtype() -> None:
    assert breaks.decide_tensor_method("tolist", S, dtype="int64").gb_id == "GB0033"
    assert breaks.decide_tensor_method("tolist", S, dtype="float32").gb_id == "GB0109"
    assert breaks.decide_tensor_method("tolist", S).confidence == "medium"
    assert not breaks.decide_tensor_method("tolist", DynamoSettings(capture_scalar_outputs=True), dtype="int64").breaks


def test_one_hot_needs_num_classes() -> None:
    one_hot = "torch.nn.functional.one_hot"
    assert breaks.decide_function(one_hot, S, arguments=breaks.Arguments((T,))).gb_id == "GB0246"
    assert breaks.decide_function(one_hot, S, arguments=breaks.Arguments((T, C), constants=((1, -1),))).gb_id \
        == "GB0246"
    assert not breaks.decide_function(one_hot, S, arguments=breaks.Arguments((T, C), constants=((1, 4),))).breaks
    assert not breaks.decide_function(one_hot, S, arguments=breaks.Arguments((T,), (("num_classes", C),))).breaks


def test_parameter_by_its_data() -> None:
    param = "torch.nn.Parameter"
    assert breaks.decide_function(param, S, arguments=breaks.Arguments((C,))).gb_id == "GB0226"
    assert breaks.decide_function(param, S, arguments=breaks.Arguments((T,))).gb_id == "GB0264"
    assert not breaks.decide_function(param, S, arguments=breaks.Arguments((T,), sourced=(0,))).breaks
    assert breaks.decide_function(param, S, arguments=breaks.Arguments((T, C))).gb_id == "GB0237"


def test_creation_with_requires_grad_and_inference_mode_query() -> None:
    made = breaks.Arguments((C,), (("requires_grad", C),), constants=((0, 2), ("requires_grad", True)))
    assert breaks.decide_function("torch.ones", S, arguments=made).gb_id == "GB0225"
    plain = breaks.Arguments((C,), (("requires_grad", C),), constants=((0, 2), ("requires_grad", False)))
    assert not breaks.decide_function("torch.ones", S, arguments=plain).breaks
    assert breaks.decide_function("torch.is_inference_mode_enabled", S, arguments=breaks.Arguments()).gb_id == "GB0046"


def test_index_by_a_tensor_and_builtins_on_tensors() -> None:
    assert breaks.decide_tensor_index("TensorVariable", S).gb_id == "GB0033"
    assert breaks.decide_tensor_index("TupleVariable", S).gb_id == "GB0124"
    assert not breaks.decide_tensor_index("ListVariable", DynamoSettings(capture_scalar_outputs=True)).breaks
    for name, gb_id in (("range", "GB0059"), ("pow", "GB0059"), ("sorted", "GB0059"), ("any", "GB0170")):
        assert breaks.decide_builtin(name, S, tensor_args=True).gb_id == gb_id, name
    assert not breaks.decide_builtin("max", S, tensor_args=True).breaks


def test_check_message_must_be_a_function_of_the_frame() -> None:  # check_message_outside, ok_check_message_lambda
    func = "UserFunctionVariable"
    assert breaks.decide_function("torch._check", S, arguments=breaks.Arguments((C, func), sourced=(1,))).gb_id \
        == "GB9840"
    assert breaks.decide_function("torch._check", S, arguments=breaks.Arguments((C, C))).gb_id == "GB9840"
    assert not breaks.decide_function("torch._check", S, arguments=breaks.Arguments((C, func))).breaks
    assert not breaks.decide_function("torch._check", S, arguments=breaks.Arguments((C,))).breaks
    with_type = breaks.Arguments(("UserDefinedClassVariable", C, C), sourced=(0,))
    assert breaks.decide_function("torch._check_with", S, arguments=with_type).gb_id == "GB9840"


def test_generator_methods_sparse_creation_and_inplace_views() -> None:  # generator_seed_global, ...
    assert breaks.decide_function("torch.Generator.manual_seed", S, arguments=breaks.Arguments((C,))).gb_id \
        == "GB7650"
    assert not breaks.decide_function("torch.Generator.device", S, arguments=breaks.Arguments()).breaks
    assert breaks.decide_function("torch.sparse_csr_tensor", S, arguments=breaks.Arguments((T, T, T))).gb_id \
        == "GB0374"
    on_input = breaks.Arguments((T, C), sourced=(0,))
    assert breaks.decide_function("torch.Tensor.unsqueeze_", S, arguments=on_input).gb_id == "GB0072"
    assert not breaks.decide_function("torch.Tensor.unsqueeze_", S, arguments=breaks.Arguments((T, C))).breaks


def test_check_message_closing_over_a_tensor() -> None:  # check_message_closure
    func = "UserFunctionVariable"
    closure = breaks.Arguments((C, func), tensor_closures=(1,))
    assert breaks.decide_function("torch._check", S, arguments=closure).gb_id == "GB9158"
    assert breaks.Arguments((T, C, func), tensor_closures=(2,)).after_first().tensor_closures == (1,)
    assert breaks.decide_closure_repr().gb_id == "GB1584"


def test_numpy_random_by_its_arguments_and_stream() -> None:  # ok_numpy_random_sized, numpy_random_stream
    sized = breaks.Arguments((C,), constants=((0, 3),))
    assert not breaks.decide_function("numpy.random.rand", S, arguments=sized).breaks
    stream = DynamoSettings(use_numpy_random_stream=True)
    assert breaks.decide_function("numpy.random.rand", stream, arguments=sized).gb_id == "GB0298"
    assert not breaks.decide_function("numpy.sin", stream, arguments=breaks.Arguments((T,))).breaks
