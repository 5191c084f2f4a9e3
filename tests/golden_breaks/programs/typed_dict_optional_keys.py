"""A TypedDict whose keys are not all required (`total=False`, `NotRequired[...]`), built in traced code: Dynamo
refuses it (GB0257) and resumes after the call (ok_typed_dict_total: with every key required it builds a dict)."""
from typing import NotRequired, TypedDict

import torch


class Batch(TypedDict, total=False):
    inputs: torch.Tensor
    mask: torch.Tensor


class Sample(TypedDict):
    inputs: torch.Tensor
    label: NotRequired[int]


@torch.compile
def step(x):
    batch = Batch(inputs=x)  # expect: GB0257
    return batch["inputs"] * 2


@torch.compile
def sample(x):
    item = Sample(inputs=x)  # expect: GB0257
    return item["inputs"] + 1


def run():
    step(torch.randn(3))
    sample(torch.randn(3))
