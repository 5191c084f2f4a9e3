import pydantic
import torch


@pydantic.dataclasses.dataclass
class Scale:
    factor: float = 2.0


@torch.compile
def scaled(x):
    y = x + 1
    cfg = Scale(factor=3.0)  # expect: GB3383
    return y * cfg.factor


def run():
    scaled(torch.randn(3))
