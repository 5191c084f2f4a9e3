"""Put on PYTHONPATH by the zoo's collection: `torch.compile` called as users call it (no
backend, or Inductor's `mode=`/`options=`) gets the `eager` backend, so no C++ is built.
Dynamo's guards, graph breaks and inlining happen before the backend. Not `aot_eager`:
AOTAutograd fails on diffusers' GroupNorm under torch 2.13 on CPU ("Expected
X.is_contiguous(memory_format) to be true"), and the zoo's scripts pass no float that changes.
vtlint's runtime hook runs this file after its own."""

import functools

import torch

_compile = torch.compile


@functools.wraps(_compile)
def _compile_with_a_cheap_backend(model=None, **kwargs):
    kwargs["backend"] = "eager"
    kwargs.pop("mode", None)
    kwargs.pop("options", None)
    return _compile(model, **kwargs) if model is not None else _compile(**kwargs)


torch.compile = _compile_with_a_cheap_backend
