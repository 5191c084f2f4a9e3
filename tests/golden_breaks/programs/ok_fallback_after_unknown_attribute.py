import importlib

import torch


class Model(torch.nn.Module):
    def __init__(self, kind):
        super().__init__()
        # a module the static pass cannot build (an import by name): assigned all the same
        self.inner = getattr(importlib.import_module("torch.nn"), kind)()

    def get_inner(self):
        inner = getattr(self, "inner", None)
        if inner is not None:
            return inner
        raise NotImplementedError("no inner module")  # only when the attribute is missing: never here

    def forward(self, x):
        return self.get_inner()(x) + 1


def run():
    model = torch.compile(Model("Identity"))
    model(torch.randn(3))
