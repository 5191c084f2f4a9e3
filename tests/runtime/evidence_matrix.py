"""The programs of the evidence matrix: where the compiled code is, and where the
value it bakes changes. Each case is a set of files whose names start with the
case's name; `<case>.py` defines `run()`, which the one harness process calls."""

from __future__ import annotations

DECORATOR = '''
import functools


def deprecate_kwarg(name):
    """A transformers-style decorator: Dynamo compiles `wrapped_func`, not the method."""
    def deco(func):
        @functools.wraps(func)
        def wrapped_func(*args, **kwargs):
            kwargs.pop(name, None)
            return func(*args, **kwargs)
        return wrapped_func
    return deco


def scaled(t, n):
    return t * n
'''

MODEL = '''
"""The seed program's compiled half: the function and the values it reads."""

import torch


class Options:
    gain = 3


settings = Options()


def scale(t):
    return t * 2


# the compiled function reads an argument, a list element and a class attribute
def step(x, k, weights, opts=settings):
    y = scale(x)
    return y * k + weights[1] + opts.gain


compiled = torch.compile(step)
'''

RUN = '''
"""The seed program's calling half: the changes happen here."""

import torch

from {module} import compiled, settings


def run():
    x = torch.ones(8)
    compiled(x, 2, [1, 2])
    compiled(x, 5, [1, 2])  # k changes
    settings.gain = 9  # the class attribute baked as 3 changes
    compiled(x, 5, [1, 2])
'''

CASES: dict[str, dict[str, str]] = {
    "m_same_function": {"m_same_function.py": '''
import torch


class Config:
    scale = 2


cfg = Config()


@torch.compile
def f(x):
    cfg.scale = cfg.scale + 1  # the compiled function changes the value it reads
    return x * cfg.scale


def run():
    for _ in range(3):
        f(torch.ones(2))
'''},
    "m_same_file": {"m_same_file.py": '''
import torch


@torch.compile
def f(x, n):
    return x * n


def run():
    x = torch.ones(2)
    f(x, 3)
    f(x, 4)  # n changes
'''},
    "m_other_file": {"m_other_file_model.py": MODEL, "m_other_file.py": RUN.format(module="m_other_file_model")},
    "m_package": {
        "m_package_lib/__init__.py": "",
        "m_package_lib/nn/__init__.py": "",
        "m_package_lib/nn/model.py": MODEL,
        "m_package.py": RUN.format(module="m_package_lib.nn.model"),
    },
    "m_method": {"m_method.py": '''
import torch
from torch import nn


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.step = 0

    def forward(self, x):
        self.step += 1
        return x * self.step


def run():
    model = torch.compile(Counter())
    for _ in range(3):
        model(torch.ones(2))
'''},
    "m_nested": {"m_nested.py": '''
import torch


def make(scale):
    def inner(x, n):
        return x * n + scale

    return torch.compile(inner)


def run():
    g = make(2)
    g(torch.ones(2), 3)
    g(torch.ones(2), 4)  # n changes
'''},
    "m_installed": {
        "site-packages/m_installed_vendor/__init__.py": '''
import torch


@torch.compile
def vendored(x, n):
    return x * n
''',
        "m_installed.py": '''
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "site-packages"))
from m_installed_vendor import vendored  # noqa: E402


def run():
    vendored(torch.ones(2), 3)
    vendored(torch.ones(2), 4)
'''},
    "m_decorated": {
        "m_decorated_utils.py": DECORATOR,
        "m_decorated.py": '''
import torch
from torch import nn

from m_decorated_utils import deprecate_kwarg


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2

    @deprecate_kwarg("old")
    def forward(self, x, k=1):
        return x * self.scale * k


def run():
    model = torch.compile(Block())
    model(torch.ones(2), k=3)
    model(torch.ones(2), k=4)  # k changes
'''},
    "m_wrapped_default": {
        "m_wrapped_default_utils.py": DECORATOR,
        "m_wrapped_default.py": '''
import torch
from torch import nn

from m_wrapped_default_utils import deprecate_kwarg


class Head(nn.Module):
    @deprecate_kwarg("old")
    def forward(self, x, bias=None, k=2):
        if bias is not None:
            x = x + bias
        return x * k


def run():
    model = torch.compile(Head())
    model(torch.ones(2))  # bias and k take their defaults, read through the wrapper's `func`
'''},
    "m_resume": {"m_resume.py": '''
import torch


@torch.compile
def f(x, n):
    y = x + 1
    print("break")
    return y * n


def run():
    f(torch.ones(2), 3)
'''},
    "m_submodule": {"m_submodule.py": '''
import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.drop = nn.Dropout(0.1)
        self.scale = 2

    def forward(self, x):
        return torch.relu(self.drop(self.fc(x))) * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = MLP()

    def forward(self, x):
        return self.mlp(x) + 1


def run():
    model = torch.compile(Net())
    model(torch.ones(2))
'''},
    "m_own_frame": {"m_own_frame.py": '''
import torch
from torch import nn


class MLP(nn.Module):
    def forward(self, x):
        print("break")  # the break makes Dynamo compile MLP.forward as its own frame
        return x * 2


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = MLP()

    def forward(self, x):
        return self.mlp(x) + 1


def run():
    model = torch.compile(Net())
    model(torch.ones(2))
'''},
}
