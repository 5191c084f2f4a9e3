"""A TypedDict with every key required, built in traced code: Dynamo builds a dict (typed_dict_optional_keys:
with optional keys it breaks)."""
from typing import TypedDict

import torch


class Batch(TypedDict):
    inputs: torch.Tensor
    mask: torch.Tensor


@torch.compile
def step(x):
    batch = Batch(inputs=x, mask=x > 0)
    return batch["inputs"] * batch["mask"]


def run():
    step(torch.randn(3))
