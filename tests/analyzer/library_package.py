"""A small installed package shaped like transformers, and the scripts users write around it.

`tinylib` exports its classes lazily (its `__init__.py` states them for type checkers only, under
`if TYPE_CHECKING:` as star imports, each leaf module listing its names in `__all__`); its config is
a dataclass made with `huggingface_hub.dataclasses.strict(accept_kwargs=True)` whose `__post_init__`
takes the keywords that are not fields (`mode="slow"`); `AutoModel.from_config` finds the model class
through a registry inverted at import and `importlib.import_module`, as transformers' Auto classes do.
A fake `huggingface_hub` beside it implements `strict`'s documented contract, so the programs run with
no other package installed. Each script compiles the same model its own way; `mode="slow"` sends its
forward down a path that prints (a graph break) and `scale=2.0` is baked into the graph."""

from __future__ import annotations

import textwrap
from pathlib import Path

PACKAGE: dict[str, str] = {
    "huggingface_hub/__init__.py": "",
    "huggingface_hub/dataclasses.py": '''
        from dataclasses import fields


        def strict(cls=None, *, accept_kwargs=False):
            def wrap(cls):
                if accept_kwargs:
                    def __init__(self, **kwargs):
                        names = {f.name for f in fields(cls)}
                        for f in fields(cls):
                            setattr(self, f.name, kwargs.get(f.name, f.default))
                        self.__post_init__(**{k: v for k, v in kwargs.items() if k not in names})

                    cls.__init__ = __init__
                return cls

            return wrap if cls is None else wrap(cls)
    ''',
    "tinylib/__init__.py": '''
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from .models import *
        else:
            import sys

            from ._lazy import LazyModule

            sys.modules[__name__] = LazyModule(__name__, __path__)
    ''',
    "tinylib/_lazy.py": '''
        import importlib
        import types

        WHERE = {"TinyConfig": ".models.tiny.configuration_tiny", "TinyModel": ".models.tiny.modeling_tiny"}


        class LazyModule(types.ModuleType):
            def __init__(self, name, path):
                super().__init__(name)
                self.__path__ = path

            def __getattr__(self, name):
                if name not in WHERE:
                    raise AttributeError(name)
                return getattr(importlib.import_module(WHERE[name], "tinylib"), name)
    ''',
    "tinylib/models/__init__.py": '''
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from .other import *
            from .tiny import *
    ''',
    "tinylib/models/other/__init__.py": '''
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from .modeling_other import *
    ''',
    "tinylib/models/other/modeling_other.py": '''
        class OtherModel:
            pass


        __all__ = ["OtherModel"]
    ''',
    "tinylib/models/tiny/__init__.py": '''
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from .configuration_tiny import *
            from .modeling_tiny import *
        else:
            from .configuration_tiny import TinyConfig
            from .modeling_tiny import TinyModel
    ''',
    "tinylib/models/tiny/configuration_tiny.py": '''
        from dataclasses import dataclass

        from huggingface_hub.dataclasses import strict


        @strict(accept_kwargs=True)
        @dataclass
        class TinyConfig:
            hidden: int = 8
            scale: float = 1.0
            use_cache: bool = True
            return_dict: bool = True

            def __post_init__(self, **kwargs):
                self.mode = kwargs.pop("mode", "fast")


        __all__ = ["TinyConfig"]
    ''',
    "tinylib/utils.py": '''
        import functools


        def can_return_tuple(func):
            @functools.wraps(func)
            def wrapper(self, *args, **kwargs):
                return_dict = kwargs.pop("return_dict", None)
                if return_dict is None:
                    return_dict = self.config.return_dict
                output = func(self, *args, **kwargs)
                return output if return_dict else (output,)

            return wrapper


        def deprecate_kwarg(old_name, new_name):
            def wrapper(func):
                @functools.wraps(func)
                def wrapped_func(*args, **kwargs):
                    if old_name in kwargs:
                        kwargs[new_name] = kwargs.pop(old_name)
                    return func(*args, **kwargs)

                return wrapped_func

            return wrapper
    ''',
    "tinylib/models/tiny/modeling_tiny.py": '''
        import torch
        from torch import nn

        from ...utils import can_return_tuple, deprecate_kwarg


        class TinyBlock(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.config = config
                self.proj = nn.Linear(config.hidden, config.hidden)

            @deprecate_kwarg("past", "cache")
            def forward(self, x, cache=None, use_cache=False):
                y = self.proj(x)
                if self.config.mode == "slow":
                    print("slow path")
                return y * self.config.scale


        class TinyModel(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.config = config
                self.block = TinyBlock(config)

            @can_return_tuple
            def forward(self, x, cache=None, use_cache=None):
                use_cache = use_cache if use_cache is not None else self.config.use_cache
                return self.block(x, cache=cache, use_cache=use_cache)


        __all__ = ["TinyModel"]
    ''',
    "tinylib/auto.py": '''
        import importlib
        from collections import OrderedDict

        CONFIG_NAMES = OrderedDict([("other", "OtherConfig"), ("tiny", "TinyConfig")])
        MODEL_NAMES = OrderedDict([("tiny", "TinyModel")])


        class LazyMapping:
            def __init__(self, config_names, model_names):
                self._reverse = {v: k for k, v in config_names.items()}
                self._model_names = model_names

            def __getitem__(self, config_class):
                model_type = self._reverse[config_class.__name__]
                module = importlib.import_module(f".models.{model_type}", "tinylib")
                return getattr(module, self._model_names[model_type])


        MODEL_MAPPING = LazyMapping(CONFIG_NAMES, MODEL_NAMES)


        class AutoModel:
            @classmethod
            def from_config(cls, config):
                return MODEL_MAPPING[type(config)](config)
    ''',
}

# The same model, config and call, compiled the ways users write it.
SCRIPTS: dict[str, str] = {
    "module_import": '''
        import torch


        def main():
            from tinylib.models.tiny.configuration_tiny import TinyConfig
            from tinylib.models.tiny.modeling_tiny import TinyModel

            model = TinyModel(TinyConfig(hidden=8, scale=2.0, mode="slow")).eval()
            model = torch.compile(model)
            with torch.no_grad():
                model(torch.ones(2, 8))


        if __name__ == "__main__":
            main()
    ''',
    "package_attribute": '''
        import torch
        import tinylib

        cfg = tinylib.TinyConfig(hidden=8, scale=2.0, mode="slow")


        def generate(compiled, x):
            with torch.inference_mode():
                return compiled(x)


        def main():
            model = tinylib.TinyModel(cfg).eval()
            compiled = torch.compile(model)
            generate(compiled, torch.ones(2, 8))


        if __name__ == "__main__":
            main()
    ''',
    "auto_class": '''
        import torch
        from tinylib import TinyConfig
        from tinylib.auto import AutoModel

        cfg = TinyConfig(hidden=8, scale=2.0, mode="slow")
        model = AutoModel.from_config(cfg).eval()
        model.forward = torch.compile(model.forward)
        with torch.no_grad():
            model(torch.ones(2, 8))
    ''',
}


def install(site: Path) -> Path:
    """Writes the package into `site` (a folder named `site-packages`); returns the model's file."""
    for rel, text in PACKAGE.items():
        target = site / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return site / "tinylib" / "models" / "tiny" / "modeling_tiny.py"


def write_script(folder: Path, style: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "run.py"
    script.write_text(textwrap.dedent(SCRIPTS[style]).lstrip("\n"), encoding="utf-8")
    return script
