"""Small programs whose Dynamo decisions the static pass must predict: each
defines `run()`, which performs the compiled calls (see tests/oracle.py)."""

PROGRAMS: dict[str, str] = {
    "seed_article": '''
        import torch

        class Config:
            scale = 2

        cfg = Config()

        def helper(t):
            return t * 3

        def f(x, n, items, cfg=cfg):
            y = helper(x)
            return y * n + items[0] + cfg.scale

        g = torch.compile(f)

        def run():
            x = torch.randn(8)
            g(x, 3, [1, 2])
            g(x, 4, [1, 2])
            cfg.scale = 5
            g(x, 4, [1, 2])
    ''',
    "int_arg": '''
        import torch

        @torch.compile
        def f(x, n):
            return x * n

        def run():
            f(torch.ones(3), 3)
    ''',
    "int_arg_changes": '''
        import torch

        @torch.compile
        def f(x, n):
            return x + n

        def run():
            x = torch.ones(3)
            f(x, 1)
            f(x, 2)
    ''',
    "float_arg": '''
        import torch

        @torch.compile
        def f(x, lr):
            return x * lr

        def run():
            f(torch.ones(3), 0.5)
    ''',
    "float_changes": '''
        import torch

        @torch.compile
        def step(x, lr):
            return x - lr * x

        def run():
            x = torch.ones(3)
            step(x, 0.1)
            step(x, 0.01)
    ''',
    "bool_arg": '''
        import torch

        @torch.compile
        def f(x, training):
            if training:
                return x * 2
            return x

        def run():
            f(torch.ones(3), True)
    ''',
    "bool_flips": '''
        import torch

        @torch.compile
        def f(x, training):
            if training:
                return x * 2
            return x

        def run():
            x = torch.ones(3)
            f(x, True)
            f(x, False)
    ''',
    "str_arg": '''
        import torch

        @torch.compile
        def f(x, act):
            if act == "relu":
                return torch.relu(x)
            return torch.tanh(x)

        def run():
            f(torch.ones(3), "relu")
    ''',
    "none_default": '''
        import torch

        @torch.compile
        def f(x, bias=None):
            if bias is None:
                return x * 2
            return x * 2 + bias

        def run():
            f(torch.ones(3))
    ''',
    "int_default": '''
        import torch

        @torch.compile
        def f(x, k=4):
            return x * k

        def run():
            f(torch.ones(3))
    ''',
    "global_int": '''
        import torch

        SCALE = 5

        @torch.compile
        def f(x):
            return x * SCALE

        def run():
            f(torch.ones(3))
    ''',
    "global_object_attr": '''
        import torch

        class Settings:
            def __init__(self):
                self.alpha = 3

        settings = Settings()

        @torch.compile
        def f(x):
            return x * settings.alpha

        def run():
            f(torch.ones(3))
    ''',
    "global_attr_mutated": '''
        import torch

        class Settings:
            def __init__(self):
                self.alpha = 3

        settings = Settings()

        @torch.compile
        def f(x):
            return x * settings.alpha

        def run():
            x = torch.ones(3)
            f(x)
            settings.alpha = 4
            f(x)
    ''',
    "class_attr_global": '''
        import torch

        class Hyper:
            depth = 2

        @torch.compile
        def f(x):
            return x + Hyper.depth

        def run():
            f(torch.ones(3))
    ''',
    "dataclass_config": '''
        import dataclasses
        import torch

        @dataclasses.dataclass
        class Config:
            hidden: int = 8
            dropout: float = 0.5

        config = Config()

        @torch.compile
        def f(x):
            return x * config.hidden + config.dropout

        def run():
            f(torch.ones(3))
    ''',
    "list_index": '''
        import torch

        @torch.compile
        def f(x, items):
            return x + items[1]

        def run():
            f(torch.ones(3), [4, 5, 6])
    ''',
    "tuple_arg": '''
        import torch

        @torch.compile
        def f(x, shape):
            return x.reshape(shape[0], shape[1])

        def run():
            f(torch.ones(6), (2, 3))
    ''',
    "dict_arg": '''
        import torch

        @torch.compile
        def f(x, opts):
            return x * opts["scale"]

        def run():
            f(torch.ones(3), {"scale": 2, "shift": 1})
    ''',
    "loop_over_list": '''
        import torch

        @torch.compile
        def f(x, weights):
            for w in weights:
                x = x * w
            return x

        def run():
            f(torch.ones(3), [2, 3])
    ''',
    "loop_range_const": '''
        import torch

        @torch.compile
        def f(x):
            for i in range(3):
                x = x + i
            return x

        def run():
            f(torch.ones(3))
    ''',
    "loop_range_arg": '''
        import torch

        @torch.compile
        def f(x, n):
            for _ in range(n):
                x = x * 2
            return x

        def run():
            f(torch.ones(3), 2)
    ''',
    "len_of_list": '''
        import torch

        @torch.compile
        def f(x, items):
            return x * len(items)

        def run():
            f(torch.ones(3), [1, 2, 3])
    ''',
    "nested_helper": '''
        import torch

        def inner(t, k):
            return t * k

        def outer(t, k):
            return inner(t, k) + 1

        @torch.compile
        def f(x, k):
            return outer(x, k)

        def run():
            f(torch.ones(3), 7)
    ''',
    "helper_with_global": '''
        import torch

        OFFSET = 2

        def shift(t):
            return t + OFFSET

        @torch.compile
        def f(x):
            return shift(x) * 2

        def run():
            f(torch.ones(3))
    ''',
    "closure_entry": '''
        import torch

        def make(k):
            @torch.compile
            def f(x):
                return x * k
            return f

        def run():
            make(3)(torch.ones(3))
    ''',
    "lambda_inline": '''
        import torch

        square = lambda t: t * t

        @torch.compile
        def f(x):
            return square(x) + 1

        def run():
            f(torch.ones(3))
    ''',
    "method_inline": '''
        import torch

        class Scaler:
            def __init__(self):
                self.k = 3

            def apply(self, t):
                return t * self.k

        scaler = Scaler()

        @torch.compile
        def f(x):
            return scaler.apply(x)

        def run():
            f(torch.ones(3))
    ''',
    "module_int_attr": '''
        import torch
        from torch import nn

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.repeat = 2

            def forward(self, x):
                return x * self.repeat

        def run():
            model = torch.compile(Block())
            model(torch.ones(3))
    ''',
    "module_step_counter": '''
        import torch
        from torch import nn

        class StepCounter(nn.Module):
            def __init__(self):
                super().__init__()
                self.step = 0

            def forward(self, x):
                self.step += 1
                return x * self.step

        def run():
            model = torch.compile(StepCounter())
            x = torch.ones(3)
            for _ in range(3):
                model(x)
    ''',
    "module_float_and_bool": '''
        import torch
        from torch import nn

        class Gate(nn.Module):
            def __init__(self):
                super().__init__()
                self.alpha = 0.5
                self.enabled = True

            def forward(self, x):
                if self.enabled:
                    x = x * self.alpha
                return x

        def run():
            model = torch.compile(Gate())
            model(torch.ones(3))
    ''',
    "module_submodule": '''
        import torch
        from torch import nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.linear = nn.Linear(4, 4)
                self.scale = 3

            def forward(self, x):
                return self.linear(x) * self.scale

        def run():
            net = Net()
            compiled = torch.compile(net)
            compiled(torch.ones(2, 4))
    ''',
    "module_helper_method": '''
        import torch
        from torch import nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.k = 2

            def scale(self, t):
                return t * self.k

            def forward(self, x):
                return self.scale(x) + 1

        def run():
            torch.compile(Net())(torch.ones(3))
    ''',
    "module_inherited_attr": '''
        import torch
        from torch import nn

        class Base(nn.Module):
            def __init__(self):
                super().__init__()
                self.width = 4

        class Child(Base):
            def forward(self, x):
                return x + self.width

        def run():
            torch.compile(Child())(torch.ones(3))
    ''',
    "dynamic_true": '''
        import torch

        @torch.compile(dynamic=True)
        def f(x, n):
            return x * n

        def run():
            f(torch.ones(3), 3)
    ''',
    "mark_dynamic_tensor": '''
        import torch

        @torch.compile
        def f(x, n):
            return x * n

        def run():
            x = torch.ones(4)
            torch._dynamo.mark_dynamic(x, 0)
            f(x, 2)
    ''',
    "enum_arg": '''
        import enum
        import torch

        class Mode(enum.Enum):
            TRAIN = 1
            EVAL = 2

        @torch.compile
        def f(x, mode):
            if mode == Mode.TRAIN:
                return x * 2
            return x

        def run():
            f(torch.ones(3), Mode.TRAIN)
    ''',
    "kwargs_call": '''
        import torch

        @torch.compile
        def f(x, *, scale):
            return x * scale

        def run():
            f(torch.ones(3), scale=4)
    ''',
    "unused_int": '''
        import torch

        @torch.compile
        def f(x, n):
            m = n
            return x * 2

        def run():
            f(torch.ones(3), 3)
    ''',
    "returned_int": '''
        import torch

        @torch.compile
        def f(x, n):
            return x * 2, n

        def run():
            f(torch.ones(3), 3)
    ''',
    "int_arithmetic": '''
        import torch

        @torch.compile
        def f(x, n):
            m = n * 2 + 1
            return x * m

        def run():
            f(torch.ones(3), 3)
    ''',
    "compare_int": '''
        import torch

        @torch.compile
        def f(x, n):
            if n > 2:
                return x + 1
            return x - 1

        def run():
            f(torch.ones(3), 3)
    ''',
    "call_in_loop": '''
        import torch

        @torch.compile
        def f(x, scale):
            return x * scale

        def run():
            x = torch.ones(3)
            for scale in [1.0, 2.0, 3.0]:
                f(x, scale)
    ''',
    "optimize_entry": '''
        import torch

        @torch._dynamo.optimize("eager")
        def f(x, n):
            return x + n

        def run():
            f(torch.ones(3), 5)
    ''',
    "alias_compile": '''
        import torch
        from torch import compile as tc

        def f(x, n):
            return x - n

        g = tc(f)

        def run():
            g(torch.ones(3), 6)
    ''',
    "graph_break_then_const": '''
        import torch

        @torch.compile
        def f(x, n):
            y = x * 2
            print("between")
            return y * n

        def run():
            f(torch.ones(3), 3)
    ''',
    "nested_list_element": '''
        import torch

        @torch.compile
        def f(x, pairs):
            return x * pairs[0][1]

        def run():
            f(torch.ones(3), [[1, 2], [3, 4]])
    ''',
    "string_global": '''
        import torch

        MODE = "fast"

        @torch.compile
        def f(x):
            if MODE == "fast":
                return x * 2
            return x

        def run():
            f(torch.ones(3))
    ''',
    "config_mutated_global": '''
        import torch

        DEPTH = 2

        @torch.compile
        def f(x):
            return x * DEPTH

        def run():
            global DEPTH
            x = torch.ones(3)
            f(x)
            DEPTH = 3
            f(x)
    ''',
    "break_in_loop": """
        import torch

        @torch.compile
        def f(x, n):
            for i in range(2):
                print(i)
                x = x * n
            return x

        def run():
            f(torch.ones(3), 3)
    """,
    "break_in_helper": """
        import torch

        def noisy(t, k):
            print("inside")
            return t * k

        @torch.compile
        def f(x, k):
            y = x + k
            return noisy(y, k)

        def run():
            f(torch.ones(3), 2)
    """,
    "shared_helpers": """
        FACTOR = 3

        def scale(t):
            return t * FACTOR
    """,
    "cross_module": """
        import torch
        from shared_helpers import scale

        @torch.compile
        def f(x):
            return scale(x) + 1

        def run():
            f(torch.ones(3))
    """,
    "dict_items_loop": """
        import torch

        @torch.compile
        def f(x, weights):
            for name, w in weights.items():
                x = x * w
            return x

        def run():
            f(torch.ones(3), {"a": 2, "b": 3})
    """,
    "enumerate_list": """
        import torch

        @torch.compile
        def f(x, sizes):
            for i, s in enumerate(sizes):
                x = x + i * s
            return x

        def run():
            f(torch.ones(3), [5, 7])
    """,
    "module_compile_method": """
        import torch
        from torch import nn

        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.classes = 3

            def forward(self, x):
                return x * self.classes

        def run():
            head = Head()
            head.compile()
            head(torch.ones(3))
    """,
    "inner_closure_inlined": """
        import torch

        @torch.compile
        def f(x, k):
            def add(t):
                return t + k
            return add(x) * 2

        def run():
            f(torch.ones(3), 4)
    """,
    "tuple_unpack": """
        import torch

        @torch.compile
        def f(x, pair):
            a, b = pair
            return x * a + b

        def run():
            f(torch.ones(3), (2, 3))
    """,
    "config_default_instance": """
        import torch

        class Cfg:
            def __init__(self):
                self.eps = 0.25

        CFG = Cfg()

        @torch.compile
        def f(x, cfg=CFG):
            return x + cfg.eps

        def run():
            f(torch.ones(3))
    """,
    "tensor_method_int": """
        import torch

        @torch.compile
        def f(x, rows):
            return x.view(rows, -1)

        def run():
            f(torch.ones(6), 2)
    """,
    "global_list": """
        import torch

        SIZES = [2, 4]

        @torch.compile
        def f(x):
            return x * SIZES[1]

        def run():
            f(torch.ones(3))
    """,
    "generator_sum": """
        import torch

        @torch.compile
        def f(x, weights):
            return sum(w * x for w in weights)

        def run():
            f(torch.ones(3), [1, 2])
    """,
    "min_of_ints": """
        import torch

        @torch.compile
        def f(x, a, b):
            return x * min(a, b)

        def run():
            f(torch.ones(3), 2, 5)
    """,
    "method_mutates_attr": """
        import torch
        from torch import nn

        class Counter(nn.Module):
            def __init__(self):
                super().__init__()
                self.calls = 0

            def bump(self):
                self.calls += 1

            def forward(self, x):
                self.bump()
                return x + self.calls

        def run():
            model = torch.compile(Counter())
            for _ in range(2):
                model(torch.ones(3))
    """,
    "lr_decay_loop": """
        import torch

        @torch.compile
        def sgd_step(w, lr):
            return w - lr * w

        def run():
            w = torch.ones(3)
            lr = 0.1
            for _ in range(3):
                w = sgd_step(w, lr)
                lr *= 0.5
    """,
    "temperature_per_call": """
        import torch

        @torch.compile
        def sample(logits, temperature):
            return torch.softmax(logits / temperature, dim=-1)

        def run():
            logits = torch.ones(4)
            for t in (1.0, 0.7):
                sample(logits, t)
    """,
    "module_int_static_unless_unspec": """
        import torch
        from torch import nn

        torch._dynamo.config.allow_unspec_int_on_nn_module = True

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
                model(torch.ones(3))
            torch._dynamo.config.allow_unspec_int_on_nn_module = False
    """,
    "decorated_helper": """
        import functools
        import torch

        def traced(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                return fn(*args, **kwargs)
            return wrapper

        def renamed(old, new):
            def decorator(fn):
                def wrapped(*args, **kwargs):
                    if old in kwargs:
                        kwargs[new] = kwargs.pop(old)
                    return fn(*args, **kwargs)
                return wrapped
            return decorator

        @traced
        def scale(t, k):
            return t * k

        class Block(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.k = 2

            @renamed("factor", "k")
            def shift(self, t, k=1):
                return t + k

            def forward(self, x):
                return self.shift(scale(x, 3)) + self.k

        def run():
            torch.compile(Block())(torch.ones(3))
    """,
    "decorated_entry": """
        import torch

        def renamed(old, new):
            def decorator(fn):
                def wrapped(*args, **kwargs):
                    if old in kwargs:
                        kwargs[new] = kwargs.pop(old)
                    return fn(*args, **kwargs)
                return wrapped
            return decorator

        class Block(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.k = 2

            @renamed("factor", "k")
            def forward(self, x, k=3):
                return x * k + self.k

        def run():
            torch.compile(Block())(torch.ones(3))
    """,
    "submodule_builtins": """
        import torch
        from torch import nn

        class Block(nn.Module):
            def __init__(self, dim, p=0.1):
                super().__init__()
                self.lin = nn.Linear(dim, dim)
                self.norm = nn.LayerNorm(dim)
                self.drop = nn.Dropout(p)
                self.eps = 1e-6

            def forward(self, x):
                h = self.norm(self.lin(x))
                return self.drop(h) + self.eps

        class Net(nn.Module):
            def __init__(self, dim, depth):
                super().__init__()
                self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
                self.scale = 0.5

            def forward(self, x):
                for blk in self.blocks:
                    x = blk(x)
                return x * self.scale

        def train_step(model, x):
            return model(x).sum()

        step = torch.compile(train_step)

        def run():
            model = Net(8, 2)
            step(model, torch.randn(4, 8))
    """,
    "compiled_module_children": """
        import torch
        from torch import nn

        class Head(nn.Module):
            def __init__(self, dim, classes):
                super().__init__()
                self.proj = nn.Linear(dim, classes)
                self.temperature = 2.0

            def forward(self, x):
                return self.proj(x) / self.temperature

        class Classifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Dropout(0.2))
                self.head = Head(16, 4)

            def forward(self, x):
                return self.head(self.body(x))

        def run():
            torch.compile(Classifier())(torch.randn(2, 16))
    """,
    "submodule_counter_every_call": """
        import torch
        from torch import nn

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)
                self.calls = 0

            def forward(self, x):
                self.calls += 1
                return self.lin(x)

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block()

            def forward(self, x):
                return self.block(x) * 2

        def train_step(model, x):
            return model(x).mean()

        step = torch.compile(train_step)

        def run():
            model = Net()
            for _ in range(3):
                step(model, torch.randn(2, 4))
    """,
    "comprehensions_inlined": """
        import torch

        @torch.compile
        def f(x, ws):
            a = [x * w for w in ws]
            b = sum(t * 2 for t in a)
            d = {k: v for k, v in zip(["p", "q"], a)}
            return b + d["p"]

        def run():
            f(torch.ones(3), [1.0, 2.0])
    """,
    "cond_branches_and_property": """
        import torch

        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self._scale = 3

            @property
            def scale(self):
                return self._scale

            def forward(self, x):
                def true_fn(t):
                    return t.cos() * self.scale

                def false_fn(t):
                    return t.sin()

                return torch.cond(x.sum() > 0, true_fn, false_fn, (x,))

        def run():
            torch.compile(M())(torch.ones(3))
    """,
    "match_statement": """
        import torch

        @torch.compile
        def f(x, mode, k):
            match mode:
                case "double":
                    return x * 2 * k
                case "half":
                    return x / 2
                case _:
                    return x

        def run():
            f(torch.ones(3), "double", 3)
            f(torch.ones(3), "half", 3)
    """,
    "inlined_defaults": """
        import torch

        def helper(t, k=3, flag=None, *, scale=2.0):
            if flag is None:
                return t * k * scale
            return t

        class Up(torch.nn.Module):
            def forward(self, x, factor=2, mode="a"):
                if mode == "a":
                    return x * factor
                return x

        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.up = Up()

            def forward(self, x):
                return helper(self.up(x))

        def run():
            torch.compile(M())(torch.ones(3))
    """,
    "argparse_defaults": """
        import argparse

        import torch

        @torch.compile
        def step(x, temperature, top_k, greedy):
            x = x / temperature
            if top_k is not None:
                x = x * top_k
            if greedy:
                x = x + 1
            return x

        def run():
            parser = argparse.ArgumentParser()
            parser.add_argument("--temperature", type=float, default=0.8)
            parser.add_argument("--top-k", type=int, default=2)
            parser.add_argument("--greedy", action="store_true")
            args = parser.parse_args([])
            for _ in range(2):
                step(torch.ones(3), args.temperature, args.top_k, args.greedy)
            step(torch.ones(3), args.temperature, None, args.greedy)

        if __name__ == "__main__":  # as a script runs it; the oracle imports it and calls run()
            run()
    """,
    "module_eval_and_append": """
        import torch
        import torch.nn as nn

        class Block(nn.Module):
            def __init__(self, depth):
                super().__init__()
                self.drop = nn.Dropout(0.1)
                self.layers = nn.ModuleList()
                for _ in range(depth):
                    self.layers.append(nn.Linear(4, 4))

            def forward(self, x):
                for layer in self.layers:
                    x = layer(x)
                if self.training:
                    x = x * 2
                return self.drop(x) * len(self.layers)

        def run():
            model = Block(2).eval()
            torch.compile(model)(torch.randn(2, 4))

        if __name__ == "__main__":
            run()
    """,
    "tensor_dtype_change": """
        import torch

        @torch.compile
        def score(logits):
            return logits.softmax(-1).amax(-1)

        def run():
            logits = torch.randn(16, 12)
            score(logits)
            score(logits.bfloat16().float())
            score(logits.bfloat16())

        if __name__ == "__main__":
            run()
    """,
    "tensor_shape_change": """
        import torch

        @torch.compile
        def head(x):
            return torch.relu(x).mean(0)

        def run():
            for batch in (16, 16, 8, 4):
                head(torch.randn(batch, 6))

        if __name__ == "__main__":
            run()
    """,
    "tuple_arg_change": """
        import torch
        import torch.nn.functional as F

        @torch.compile
        def pooled(feature_map, kernel_size):
            return F.avg_pool2d(feature_map, kernel_size=kernel_size, stride=kernel_size).flatten(1)

        def run():
            fmap = torch.randn(2, 8, 16, 16)
            for kernel_size in ((2, 2), (4, 4), (2, 2)):
                pooled(fmap, kernel_size)

        if __name__ == "__main__":
            run()
    """,
    "dataloader_last_batch": """
        import torch
        from torch.utils.data import DataLoader, TensorDataset

        @torch.compile
        def loss_of(x, y):
            return ((x.sum(-1, keepdim=True) - y) ** 2).mean()

        def run():
            data = TensorDataset(torch.randn(40, 6), torch.randn(40, 1))
            for epoch in range(2):
                for x, y in DataLoader(data, batch_size=16):
                    loss_of(x, y)

        if __name__ == "__main__":
            run()
    """,
    "no_grad_eval": """
        import torch
        from torch import nn

        class MLP(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(12, 4)
                self.drop = nn.Dropout(0.1)

            def forward(self, x):
                return self.drop(self.fc(x))

        def run():
            model = MLP()
            compiled = torch.compile(model)
            for epoch in range(2):
                model.train()
                compiled(torch.randn(8, 12)).sum().backward()
                model.eval()
                with torch.no_grad():
                    compiled(torch.randn(8, 12))

        if __name__ == "__main__":
            run()
    """,
    "function_argument_change": """
        import torch
        import torch.nn.functional as F

        @torch.compile
        def block(x, w, activation):
            return activation(x @ w)

        def run():
            x, w = torch.randn(8, 16), torch.randn(16, 16)
            for activation in (F.relu, F.gelu, F.silu):
                block(x, w, activation)

        if __name__ == "__main__":
            run()
    """,
    "tensor_size_from_softmax": """
        import torch

        @torch.compile
        def mix(x, weights):
            return x * weights.sum()

        def run():
            for levels in (3, 3, 4):
                mix(torch.randn(5), torch.softmax(torch.randn(levels), 0))

        if __name__ == "__main__":
            run()
    """,
    "membership_tests": """
        import torch

        @torch.compile
        def f(x, mode, opts):
            if mode in ("train", "finetune"):
                x = x * 2
            if "scale" in opts:
                x = x * opts["scale"]
            return x

        def run():
            f(torch.ones(3), "train", {"scale": 3})
            f(torch.ones(3), "eval", {"scale": 3})

        if __name__ == "__main__":
            run()
    """,
    "compile_wrappers": """
        import functools

        import torch

        def scaled(x, n):
            return x * n

        def shifted(x, k):
            return x + k

        static_compile = functools.partial(torch.compile, dynamic=False)
        cf = static_compile(scaled)
        cg = torch._dynamo.optimize("eager")(shifted)

        def run():
            x = torch.ones(3)
            for n in (2, 3, 4):
                cf(x, n)
                cg(x, n)

        if __name__ == "__main__":
            run()
    """,
    "custom_getattribute": """
        import torch

        class Config:
            aliases = {"width": "hidden"}

            def __init__(self, hidden):
                self.hidden = hidden

            def __getattribute__(self, key):
                if key != "aliases" and key in super().__getattribute__("aliases"):
                    key = super().__getattribute__("aliases")[key]
                return super().__getattribute__(key)

        @torch.compile
        def f(x, cfg):
            return x * cfg.hidden

        def run():
            f(torch.ones(3), Config(4))

        if __name__ == "__main__":
            run()
    """,
    "conditional_global_flag": """
        import os

        import torch

        _FAST_PATH = False
        if os.environ.get("GOLDEN_NEVER_SET_FLAG"):
            _FAST_PATH = True

        @torch.compile
        def f(x):
            if _FAST_PATH:
                return x + 1
            return x * 2

        def run():
            f(torch.ones(3))

        if __name__ == "__main__":
            run()
    """,
    "dual_use_decorator": """
        from functools import wraps

        import torch

        def traced(func=None, *, tag="x"):
            def wrapped_fn(func):
                @wraps(func)
                def wrapper(x, n):
                    return func(x, n) + 1
                return wrapper
            if func is not None:
                return wrapped_fn(func)
            return wrapped_fn

        @traced
        def step(x, n):
            return x * n

        @torch.compile
        def g(x, n):
            return step(x, n)

        def run():
            g(torch.ones(3), 2)

        if __name__ == "__main__":
            run()
    """,
    "attribute_stored_in_frame": """
        import torch

        class Collector:
            def __init__(self):
                self.compiling = False
                self.scale = 3

            def enter(self):
                self.compiling = True

        collector = Collector()

        @torch.compile
        def f(x):
            collector.enter()
            if collector.compiling:
                x = x * collector.scale
            return x + 1

        def run():
            f(torch.ones(3))

        if __name__ == "__main__":
            run()
    """,
    "composite_config_subclass_hook": """
        import torch
        from torch import nn


        class classproperty(property):
            def __get__(self, owner_self, owner_cls):
                return self.fget(owner_cls)


        class Spec:
            def __init__(self, config_class, init_kwargs=None):
                self.config_class = config_class
                self.init_kwargs = init_kwargs if init_kwargs is not None else {}

            def create(self, given):
                if isinstance(given, BaseConfig):
                    return given
                if not issubclass(self.config_class, BaseConfig):
                    raise TypeError("a sub-config's class must be a config")
                return self.config_class(**(given if given is not None else self.init_kwargs))


        class BaseConfig:
            sub_configs_defaults = {}

            def __init_subclass__(cls, **kwargs):
                super().__init_subclass__(**kwargs)

                def resolve(spec):
                    return spec if isinstance(spec, Spec) else Spec(spec)

                if (given := cls.__dict__.get("sub_configs_defaults")) is not None:
                    cls.sub_configs_defaults = {k: resolve(v) for k, v in given.items()}

            def __init__(self, **kwargs):
                for key, spec in self.sub_configs_defaults.items():
                    setattr(self, key, spec.create(kwargs.get(key)))

            @classproperty
            def sub_configs(cls):
                return {k: spec.config_class for k, spec in cls.sub_configs_defaults.items()}


        class TextConfig(BaseConfig):
            def __init__(self, layers=1, scale=1.0, **kwargs):
                self.layers = layers
                self.scale = scale
                super().__init__(**kwargs)


        class VisionConfig(BaseConfig):
            def __init__(self, patch=1, **kwargs):
                self.patch = patch
                super().__init__(**kwargs)


        class CompositeConfig(BaseConfig):
            sub_configs_defaults = {"text_config": TextConfig, "vision_config": Spec(VisionConfig, {"patch": 2})}


        class TextModel(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(config.layers)])
                self.scale = config.scale

            def forward(self, x):
                for layer in self.layers:
                    x = layer(x) * self.scale
                return x


        class Model(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.text = TextModel(config.text_config)
                self.patch = config.vision_config.patch
                self.towers = len(config.sub_configs)

            def forward(self, x):
                return self.text(x) * self.patch + self.towers


        def run():
            model = Model(CompositeConfig(text_config={"layers": 3, "scale": 0.5}))
            torch.compile(model)(torch.randn(2, 4))


        if __name__ == "__main__":
            run()
    """,
    "bare_module_stages": """
        import torch
        from torch import nn


        class Block(nn.Module):
            def __init__(self, dim, eps):
                super().__init__()
                self.lin = nn.Linear(dim, dim)
                self.eps = eps

            def forward(self, x):
                return self.lin(x) + self.eps


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = nn.ModuleList()
                for level in reversed(range(3)):
                    stage = nn.Module()
                    stage.block = nn.ModuleList()
                    for _ in range(2):
                        stage.block.append(Block(4, 0.5 * (level + 1)))
                    self.up.insert(0, stage)

            def forward(self, x):
                for level in reversed(range(3)):
                    stage = self.up[level]
                    for block in stage.block:
                        x = block(x)
                return x


        def run():
            torch.compile(Net())(torch.randn(2, 4))


        if __name__ == "__main__":
            run()
    """,
    "optional_dependency_decorator": """
        import functools
        import importlib.util

        import torch
        from torch import nn


        def _is_package_available(name):
            exists = importlib.util.find_spec(name) is not None
            return exists, ("1.0" if exists else "N/A")


        _fancy_available, _fancy_version = _is_package_available("a_package_nobody_installed")
        _torch_available, _torch_version = _is_package_available("torch")


        def hooked(method):
            if not _fancy_available:
                return method

            @functools.wraps(method)
            def wrapper(self, *args, **kwargs):
                return method(self, *args, **kwargs)

            return wrapper


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)

            @hooked
            def encode(self, x):
                return self.lin(x)

            def forward(self, x):
                if _torch_available:
                    x = x + 1
                return self.encode(x)


        def run():
            torch.compile(Net())(torch.randn(2, 4))


        if __name__ == "__main__":
            run()
    """,
    "config_class_from_annotation": """
        import inspect

        import torch
        from torch import nn


        class Config:
            layers = 2


        class TextConfig:
            layers = 1


        class PreTrained(nn.Module):
            config_class = None

            def __init_subclass__(cls, **kwargs):
                super().__init_subclass__(**kwargs)
                own = inspect.get_annotations(cls).get("config", None)
                if cls.__dict__.get("config_class") is None and own is not None:
                    cls.config_class = own


        class Block(nn.Module):
            def __init__(self, eps):
                super().__init__()
                self.eps = eps

            def forward(self, x):
                return x + self.eps


        class Net(PreTrained):
            config: Config

            def __init__(self):
                super().__init__()
                chosen = TextConfig if type(self).config_class == TextConfig else self.config_class
                self.layers = nn.ModuleList([Block(0.5 * i) for i in range(chosen.layers)])

            def forward(self, x):
                for layer in self.layers:
                    x = layer(x)
                return x


        def run():
            torch.compile(Net())(torch.randn(2, 4))


        if __name__ == "__main__":
            run()
    """,
    "dataclass_output_fields": """
        import dataclasses
        from dataclasses import dataclass

        import torch
        from torch import nn


        class Base:
            def __init__(self, *args, **kwargs):
                self.hidden = None


        @dataclass
        class Out(Base):
            hidden: object = None
            extra: object = None

            def __post_init__(self):
                names = [f.name for f in dataclasses.fields(self)]
                others_none = all(self.__dict__.get(n) is None for n in names[1:])
                self.only_tensor = others_none and str(type(self.hidden)) == "<class 'torch.Tensor'>"


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)
                self.a = 0.5
                self.b = 2.0

            def forward(self, x):
                out = Out(hidden=self.lin(x))
                if out.hidden is None:
                    return x
                if out.only_tensor:
                    return out.hidden * self.a
                return out.hidden * self.b


        def run():
            torch.compile(Net())(torch.randn(2, 4))


        if __name__ == "__main__":
            run()
    """,
    "module_flag_from_metadata": """
        import importlib.metadata
        import importlib.util

        import torch
        from torch import nn

        _torch_version = importlib.metadata.version("torch")
        _HAS_MODERN_TORCH = False
        if importlib.util.find_spec("torch") is not None and int(_torch_version.split(".")[0]) >= 2:
            _HAS_MODERN_TORCH = True


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = 0.5
                self.b = 2.0

            def forward(self, x):
                if _HAS_MODERN_TORCH:
                    return x * self.a
                return x * self.b


        def run():
            torch.compile(Net())(torch.randn(2, 4))


        if __name__ == "__main__":
            run()
    """,
    "experts_loop_activation_frame": """
        import torch
        from torch import nn


        class Activation(nn.Module):
            def forward(self, x):
                return nn.functional.silu(x)


        class Experts(nn.Module):
            def __init__(self):
                super().__init__()
                self.num_experts = 4
                self.weight = nn.Parameter(torch.randn(4, 8, 16))
                self.act_fn = Activation()

            def forward(self, hidden_states, top_k_index):
                final = torch.zeros(hidden_states.shape[0], 16)
                with torch.no_grad():
                    expert_mask = nn.functional.one_hot(top_k_index, num_classes=self.num_experts + 1).permute(2, 1, 0)
                    expert_hit = torch.greater(expert_mask.sum(dim=(-1, -2)), 0).nonzero()
                for expert_idx in expert_hit:
                    expert_idx = expert_idx[0]
                    if expert_idx == self.num_experts:
                        continue
                    top_k_pos, token_idx = torch.where(expert_mask[expert_idx])
                    current = hidden_states[token_idx] @ self.weight[expert_idx]
                    final.index_add_(0, token_idx, self.act_fn(current))
                return final


        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.experts = Experts()

            def forward(self, x, index):
                return self.experts(x, index) + 1


        def run():
            torch.manual_seed(0)
            index = torch.tensor([[0], [1], [1], [2], [2], [2], [3], [3]])
            torch.compile(Block())(torch.randn(8, 8), index)


        if __name__ == "__main__":
            run()
    """,
    "shared_activation_in_sequential": """
        import torch
        from torch import nn


        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                act = nn.ReLU()
                self.conv = nn.Sequential(nn.Linear(4, 4), act, nn.Linear(4, 4), act, nn.Linear(4, 4))

            def forward(self, x):
                return self.conv(x) + x


        def run():
            torch.compile(Block())(torch.randn(2, 4))


        if __name__ == "__main__":
            run()
    """,
    "no_op_frame_skipped": """
        import torch
        from torch import nn


        class Config:
            def __init__(self):
                self.scale = 2.0


        def setup(cfg, flag):
            if flag:
                cfg.scale = 3.0
            return cfg


        class Passthrough(nn.Module):
            def __init__(self):
                super().__init__()
                self.enabled = True

            def forward(self, x):
                if self.enabled:
                    return x
                return x


        def run():
            torch.compile(setup)(Config(), True)
            torch.compile(Passthrough())(torch.randn(2))


        if __name__ == "__main__":
            run()
    """,
    "enum_membership": """
        from enum import Enum

        import torch


        class Mode(Enum):
            FAST = "fast"
            CAREFUL = "careful"


        def careful_path(x):
            return x.clamp(-1, 1)


        def f(x, mode):
            if mode in (Mode.CAREFUL,):
                return careful_path(x)
            return x + 1


        def run():
            torch.compile(f)(torch.randn(3), Mode.FAST)


        if __name__ == "__main__":
            run()
    """,
    "experts_loop_linear_chunk": """
        import torch
        from torch import nn


        class Activation(nn.Module):
            def forward(self, x):
                return nn.functional.silu(x)


        class Experts(nn.Module):
            def __init__(self):
                super().__init__()
                self.num_experts = 4
                self.weight = nn.Parameter(torch.randn(4, 32, 8))
                self.act_fn = Activation()

            def forward(self, hidden_states, top_k_index):
                final = torch.zeros(hidden_states.shape[0], 16)
                with torch.no_grad():
                    expert_mask = nn.functional.one_hot(top_k_index, num_classes=self.num_experts + 1).permute(2, 1, 0)
                    expert_hit = torch.greater(expert_mask.sum(dim=(-1, -2)), 0).nonzero()
                for expert_idx in expert_hit:
                    expert_idx = expert_idx[0]
                    if expert_idx == self.num_experts:
                        continue
                    top_k_pos, token_idx = torch.where(expert_mask[expert_idx])
                    gate, up = nn.functional.linear(hidden_states[token_idx], self.weight[expert_idx]).chunk(2, dim=-1)
                    current = self.act_fn(gate) * up
                    final.index_add_(0, token_idx, current)
                return final


        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.experts = Experts()

            def forward(self, x, index):
                return self.experts(x, index) + 1


        def run():
            torch.manual_seed(0)
            index = torch.tensor([[0], [1], [1], [2], [2], [2], [3], [3]])
            torch.compile(Block())(torch.randn(8, 8), index)


        if __name__ == "__main__":
            run()
    """,
    "cache_filled_by_previous_layer": """
        import torch
        from torch import nn


        class CacheLayer:
            def __init__(self):
                self.is_initialized = False
                self.keys = None

            def update(self, key):
                if not self.is_initialized:
                    self.keys = key[:, :0]
                    self.is_initialized = True
                self.keys = torch.cat([self.keys, key], dim=1)
                return self.keys


        class Cache:
            def __init__(self, n):
                self.layers = [CacheLayer() for _ in range(n)]

            def update(self, key, layer_idx):
                return self.layers[layer_idx].update(key)


        class Decoder(nn.Module):
            def __init__(self, layer_idx):
                super().__init__()
                self.layer_idx = layer_idx
                self.proj = nn.Linear(8, 8)

            def forward(self, x, cache):
                keys = cache.update(self.proj(x), self.layer_idx)
                hit = (keys.sum(-1) > 0).nonzero()
                return x + keys.mean(1, keepdim=True) + hit.shape[0]


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList(Decoder(i) for i in range(2))

            def forward(self, x):
                cache = Cache(2)
                for layer in self.layers:
                    x = layer(x, cache)
                return x


        def run():
            torch.manual_seed(0)
            with torch.no_grad():
                torch.compile(Model())(torch.randn(2, 4, 8))


        if __name__ == "__main__":
            run()
    """,
    "cache_filled_by_previous_layer_wrapped": """
        import functools

        import torch
        from torch import nn


        def passes_through(fn):
            @functools.wraps(fn)
            def wrapper(self, *args, **kwargs):
                return fn(self, *args, **kwargs)

            return wrapper


        class CacheLayer:
            def __init__(self):
                self.is_initialized = False
                self.keys = None

            def update(self, key):
                if not self.is_initialized:
                    self.keys = key[:, :0]
                    self.is_initialized = True
                self.keys = torch.cat([self.keys, key], dim=1)
                return self.keys


        class Cache:
            def __init__(self, n):
                self.layers = [CacheLayer() for _ in range(n)]

            def update(self, key, layer_idx):
                return self.layers[layer_idx].update(key)


        class Decoder(nn.Module):
            def __init__(self, layer_idx):
                super().__init__()
                self.layer_idx = layer_idx
                self.proj = nn.Linear(8, 8)

            @passes_through
            def forward(self, x, cache):
                keys = cache.update(self.proj(x), self.layer_idx)
                hit = (keys.sum(-1) > 0).nonzero()
                return x + keys.mean(1, keepdim=True) + hit.shape[0]


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList(Decoder(i) for i in range(2))

            def forward(self, x):
                cache = Cache(2)
                for layer in self.layers:
                    x = layer(x, cache)
                return x


        def run():
            torch.manual_seed(0)
            with torch.no_grad():
                torch.compile(Model())(torch.randn(2, 4, 8))


        if __name__ == "__main__":
            run()
    """,
    "later_call_callee_frames": """
        import functools

        import torch
        from torch import nn


        def passes_through(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                return fn(*args, **kwargs)

            return wrapper


        @passes_through
        def make_mask(scale, inputs_embeds=None, position_ids=None):
            torch._dynamo.graph_break()
            return inputs_embeds * scale + position_ids.unsqueeze(-1)


        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(8, 8)

            def forward(self, x):
                hit = (x.sum(-1) > 0).nonzero()
                return self.proj(x) + hit.shape[0]


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block()

            def forward(self, x):
                position_ids = torch.arange(x.shape[1]).unsqueeze(0)
                make_mask(2.0, inputs_embeds=x, position_ids=position_ids)
                return self.block(x)


        def run():
            torch.manual_seed(0)
            compiled = torch.compile(Model())
            with torch.no_grad():
                compiled(torch.randn(1, 8, 8))
                compiled(torch.randn(1, 12, 8))


        if __name__ == "__main__":
            run()
    """,
    "resume_handed_later_call": """
        import torch
        from torch import nn


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(8, 8)

            def forward(self, x):
                residual = self.proj(x)
                hit = (x.sum(-1) > 0).nonzero()
                return residual * 2 + hit.shape[0]


        def run():
            torch.manual_seed(0)
            compiled = torch.compile(Model())
            with torch.no_grad():
                compiled(torch.randn(1, 8, 8))
                compiled(torch.randn(1, 12, 8))


        if __name__ == "__main__":
            run()
    """,
    "callee_frame_resume_later_call": """
        import functools

        import torch
        from torch import nn


        def passes_through(fn):
            @functools.wraps(fn)
            def wrapped_func(*args, **kwargs):
                return fn(*args, **kwargs)

            return wrapped_func


        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(8, 8)

            @passes_through
            def forward(self, x):
                y = self.proj(x)
                print("slow path")
                return y * 2


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.block = Block()

            def forward(self, x):
                return self.block(x)


        def run():
            compiled = torch.compile(Model())
            with torch.no_grad():
                compiled(torch.ones(2, 8))
                compiled(torch.ones(3, 8))


        if __name__ == "__main__":
            run()
    """,
    "deprecate_factory_cells": """
        import functools

        import torch
        from torch import nn


        def is_compiling():
            return torch.compiler.is_compiling()


        def renamed(old_name, new_name=None, warn=True):
            def wrapper(func):
                @functools.wraps(func)
                def wrapped_func(*args, **kwargs):
                    if old_name in kwargs and new_name is not None:
                        kwargs[new_name] = kwargs.pop(old_name)
                        if warn and not is_compiling():
                            print("renamed")
                    return func(*args, **kwargs)

                return wrapped_func

            return wrapper


        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(8, 8)

            @renamed("past", new_name="cache")
            def forward(self, x, cache=None):
                return self.proj(x)


        def run():
            torch.compile(Block())(torch.randn(2, 8), cache=None)


        if __name__ == "__main__":
            run()
    """,
    "import_time_accelerator_flag": """
        import torch


        def is_xpu_available() -> bool:
            # a library's accelerator check, run once when the module is imported
            if not hasattr(torch, "xpu"):
                return False
            return torch.xpu.is_available()


        _xpu_available = is_xpu_available()


        def xpu_kernel(x):
            return x.cos()


        def default_kernel(x):
            return x.sin()


        def pick_kernel(x):
            if _xpu_available:
                return xpu_kernel(x)
            return default_kernel(x)


        @torch.compile
        def step(x):
            return pick_kernel(x) + 1


        def run():
            step(torch.randn(4))


        if __name__ == "__main__":
            run()
    """,
    "decorator_wrapper_own_calls": """
        # A decorator's wrapper compiled as the entry's frame: its own calls (a helper, a config class's
        # `__getattribute__`) are the entry's plumbing, not reported as inlines (as the runtime reports them); the
        # calls inside what it calls are.
        import functools

        import torch
        from torch import nn


        class Config:
            attribute_map = {"hidden": "hidden_size"}

            def __init__(self):
                self.hidden_size = 4
                self.return_dict = True

            def __getattribute__(self, key):
                if key != "attribute_map" and key in super().__getattribute__("attribute_map"):
                    key = super().__getattribute__("attribute_map")[key]
                return super().__getattribute__(key)


        def read_size(config):
            return config.hidden_size


        def can_return_tuple(func):
            @functools.wraps(func)
            def wrapper(self, *args, **kwargs):
                out = func(self, *args, **kwargs)
                n = read_size(self.config)
                return_dict = self.config.return_dict if hasattr(self, "config") else True
                return out * n if return_dict else (out,)
            return wrapper


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.config = Config()
                self.proj = nn.Linear(4, 4)

            @can_return_tuple
            def forward(self, x):
                return self.proj(x) * self.config.hidden_size


        def run():
            net = torch.compile(Net())
            net(torch.randn(2, 4))


        if __name__ == "__main__":
            run()
    """,
    "isinstance_slice_of_index": """
        import torch


        class LayerView:
            # a per-layer view that takes an index or a slice, as a config's per-layer view does: an int takes
            # the index path only (`isinstance(index, slice)` folds to False)

            def __init__(self, sizes):
                self._sizes = sizes

            def __len__(self):
                return len(self._sizes)

            def __getitem__(self, index):
                if isinstance(index, slice):
                    return [self[i] for i in range(*index.indices(len(self)))]
                if index < 0:
                    index += len(self)
                return self._sizes[index]


        view = LayerView([2, 3])


        @torch.compile
        def scale(x, layer):
            return x * view[layer]


        def run():
            scale(torch.randn(4), 1)


        if __name__ == "__main__":
            run()
    """,
    "isinstance_of_abc_derived": """
        from abc import ABC

        import torch


        class Layer(ABC):
            def scale(self):
                return 2


        class DenseLayer(Layer):
            pass


        class EmptyLayer:
            pass


        layers = [DenseLayer(), DenseLayer()]


        def first_dense():
            # `isinstance` of an object whose classes derive from abc.ABC only: no EmptyLayer, whatever ABC is
            empty = [isinstance(layer, EmptyLayer) for layer in layers]
            return empty.index(False) if False in empty else 0


        def dense_path(x):
            return x * 2


        def empty_path(x):
            return x + 1


        @torch.compile
        def step(x):
            if first_dense() == 0:
                return dense_path(x)
            return empty_path(x)


        def run():
            step(torch.randn(4))


        if __name__ == "__main__":
            run()
    """,
    "environment_default_read": """
        import os

        import torch


        def fast(x):
            return x * 2


        def slow(x):
            return x.cos() * 2


        def pick(x):
            # a library's switch read from the environment while tracing: unset here, its default decides
            if os.environ.get("VTLINT_GOLDEN_FORCE_SLOW", "0") == "1":
                return slow(x)
            return fast(x)


        @torch.compile
        def step(x):
            return pick(x) + 1


        def run():
            step(torch.randn(4))


        if __name__ == "__main__":
            run()
    """,
    "init_subclass_rewrap": """
        from functools import wraps
        import torch
        from torch import nn

        class Checkpointed(nn.Module):
            gradient_checkpointing = False

            def __init_subclass__(cls, **kwargs):
                super().__init_subclass__(**kwargs)
                forward = cls.forward

                @wraps(forward)
                def forward_with_checkpointing(self, *args, **kwargs):
                    is_outermost = type(self).forward is forward_with_checkpointing
                    if self.gradient_checkpointing and self.training and is_outermost:
                        return forward(self, *args, **kwargs) * 2
                    return forward(self, *args, **kwargs)

                cls.forward = forward_with_checkpointing

        class Layer(Checkpointed):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)

            def forward(self, x):
                return self.lin(x)

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([Layer() for _ in range(2)])

            def forward(self, x):
                for layer in self.layers:
                    x = layer(x)
                return x

        def run():
            torch.compile(Net())(torch.randn(2, 4))

        if __name__ == "__main__":
            run()
    """,
    "history_append_in_step": """
        import torch

        history = []

        @torch.compile
        def step(x, w):
            loss = (x * w).sum()
            history.append(loss.detach())
            return loss * 2

        def run():
            for _ in range(3):
                step(torch.ones(3), torch.ones(3))

        if __name__ == "__main__":
            run()
    """,
    "factory_closure": """
        import torch

        def make(scale, bias=0.5):
            def inner(x, n):
                return x * n * scale + bias

            return torch.compile(inner)

        def run():
            g = make(2)
            g(torch.ones(2), 3)
            g(torch.ones(2), 4)
    """,
    "closure_cell_changes": """
        import torch

        def make_loss(weight):
            def loss_fn(logits):
                return (logits * weight).sum()

            return torch.compile(loss_fn)

        def run():
            for weight in (1.0, 2.0, 4.0):
                loss_fn = make_loss(weight)
                loss_fn(torch.ones(3))
    """,
    "classmethod_preset_and_staticmethod": """
        import torch
        import torch.nn as nn

        class Cfg:
            def __init__(self, width=4, scale=1.0, mode="sum"):
                self.width = width
                self.scale = scale
                self.mode = mode

            @classmethod
            def tiny(cls, **overrides):
                kwargs = dict(width=2, scale=0.5)
                kwargs.update(overrides)
                return cls(**kwargs)

        class Net(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.scale = cfg.scale
                self.mode = cfg.mode
                self.lin = nn.Linear(cfg.width, cfg.width)

            @staticmethod
            def combine(x, k):
                return x * k

            def forward(self, x):
                y = self.combine(self.lin(x), self.scale)
                return y.sum() if self.mode == "sum" else y.mean()

        def run():
            net = torch.compile(Net(Cfg.tiny(mode="mean")))
            net(torch.ones(3, 2))
    """,
    "layer_class_identity_and_field_factory": """
        from dataclasses import dataclass, field

        import torch
        import torch.nn as nn

        class Plain(nn.Module):
            def forward(self, x):
                return x + 1

        class Scaled(nn.Module):
            def __init__(self, k):
                super().__init__()
                self.k = k

            def forward(self, x):
                return x * self.k

        TYPES = {"plain": Plain, "scaled": Scaled}

        @dataclass
        class Cfg:
            kind: str = "scaled"
            widths: list = field(default_factory=lambda: [4, 8, 16])

        class Net(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                cls = TYPES[cfg.kind]
                sizes = list(cfg.widths)
                self.layer = Scaled(sizes.pop()) if cls is Scaled else Plain()
                self.depth = len(sizes)

            def forward(self, x):
                return self.layer(x) - self.depth

        def run():
            net = torch.compile(Net(Cfg()))
            net(torch.ones(2))
    """,
    "namespace_argument_and_two_schedules": """
        import argparse

        import torch

        @torch.compile
        def loss_fn(x, clip, coef, args):
            y = (x - clip) * coef
            if args.normalize:
                y = y / (y.abs().max() + 1)
            return y.sum() * args.weight

        def run():
            parser = argparse.ArgumentParser()
            parser.add_argument("--normalize", action="store_true", default=True)
            parser.add_argument("--weight", type=float, default=0.5)
            args = parser.parse_args([])
            for step in range(3):
                loss_fn(torch.ones(4), 0.2 - 0.05 * step, 0.01 * (2 - step), args)
    """,
    "dtype_globals": """
        import torch
        import torch as T
        from torch import float16

        @torch.compile
        def make(x):
            steps = torch.arange(4, dtype=torch.float32)
            mask = torch.eye(2, dtype=torch.bool, device=x.device)
            index = torch.full((2,), 1, dtype=torch.long)
            return steps.sum() + mask.sum() + index.sum() + x.to(T.bfloat16).float() + x.to(float16).float()

        def run():
            make(torch.ones(2))
    """,
    "tensor_then_int_argument": """
        import torch

        @torch.compile(dynamic=False)
        def denoise(x, t):
            if not torch.is_tensor(t):
                t = torch.full((x.shape[0],), t, dtype=torch.long)
            return x * t

        def run():
            denoise(torch.ones(2), torch.ones(2, dtype=torch.long))
            for t in (3, 2, 1):
                denoise(torch.ones(2), t)
    """,
    "getattr_with_constant_names": """
        import torch
        import torch.nn as nn

        class Block(nn.Module):
            def __init__(self, act="GELU", scale=0.5):
                super().__init__()
                self.scale = scale
                self.act = getattr(nn, act)()

            def forward(self, x):
                for name in ("scale", "shift"):
                    value = getattr(self, name, None)
                    if value is not None:
                        x = x * value
                if hasattr(self, "bias_term"):
                    x = x + 1
                return self.act(x)

        def run():
            block = torch.compile(Block())
            block(torch.ones(2))
    """,
    "sequential_subclass_and_list_slices": """
        import json

        import torch
        import torch.nn as nn

        CONFIG = '{"width": 4, "blocks": 2, "mode": "add"}'

        class ConvNormAct(nn.Sequential):
            def __init__(self, c):
                super().__init__(nn.Linear(c, c), nn.LayerNorm(c), nn.ReLU())

        class Up(nn.Module):
            def __init__(self, c, mode):
                super().__init__()
                self.mode = mode
                self.conv = ConvNormAct(c)

            def forward(self, x, skip):
                return self.conv(x) + skip if self.mode == "add" else self.conv(x)

        class Decoder(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.blocks = nn.ModuleList([Up(cfg["width"], cfg["mode"]) for _ in range(cfg["blocks"])])

            def forward(self, x):
                feats = [x, x * 2, x * 3]
                for block, skip in zip(self.blocks, reversed(feats[:-1])):
                    x = block(x, skip)
                return x

        def run():
            model = torch.compile(Decoder(json.loads(CONFIG)))
            model(torch.ones(2, 4))
    """,
    "skipped_frame_compiles_its_callees": """
        import torch
        import torch.nn as nn

        class Expert(nn.Module):
            def __init__(self, scale):
                super().__init__()
                self.scale = scale

            def forward(self, x):
                return x * self.scale

        class Router(nn.Module):
            def __init__(self):
                super().__init__()
                self.experts = nn.ModuleList([Expert(2.0), Expert(3.0)])

            def forward(self, x):
                for expert in self.experts:
                    rows, cols = torch.where(x > 0)
                    x = expert(x) + rows.numel()
                return x

        def run():
            model = torch.compile(Router())
            model(torch.ones(2, 2))
    """,
    "loop_break_inside_an_inlined_callee": """
        import torch
        import torch.nn as nn

        class Dispatch(nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = 2.0

            def forward(self, x):
                for _ in range(2):
                    rows, cols = torch.where(x > 0)
                    x = x * self.scale + rows.numel()
                return x

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.gate = True
                self.inner = Dispatch()

            def forward(self, x):
                if self.gate:
                    x = self.inner(x + 1)
                return x - 1

        def run():
            model = torch.compile(Block())
            model(torch.ones(2, 2))
    """,
    "math_constants_and_cosine_schedule": """
        import math

        import torch

        @torch.compile(dynamic=False)
        def gelu_tanh(x, temperature):
            inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)
            return 0.5 * x * (1.0 + torch.tanh(inner)) / temperature

        def temperature_at(step, total, start=0.5, end=0.1):
            return round(end + 0.5 * (start - end) * (1 + math.cos(math.pi * step / (total - 1))), 3)

        def run():
            for step in range(3):
                gelu_tanh(torch.ones(3), temperature_at(step, 3))
    """,
    "one_module_under_two_names": """
        import torch
        import torch.nn as nn

        class Head(nn.Module):
            def __init__(self, shared):
                super().__init__()
                if shared:
                    self.back = self.fore = nn.Linear(4, 4, bias=False)
                else:
                    self.back = nn.Linear(4, 4, bias=False)
                    self.fore = nn.Linear(4, 4, bias=False)

            def forward(self, x):
                return self.back(x) + self.fore(x)

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.heads = nn.ModuleList([Head(True), Head(False)])

            def forward(self, x):
                for head in self.heads:
                    x = head(x)
                return x

        def run():
            torch.compile(Net())(torch.ones(2, 4))
    """,
    "shape_tuple_from_module_attributes": """
        import torch
        import torch.nn as nn

        class Heads(nn.Module):
            def __init__(self, heads=4, dim=16):
                super().__init__()
                self.num_heads = heads
                self.head_dim = dim // heads

            def forward(self, x):
                new_shape = x.size()[:-1] + (self.num_heads, self.head_dim)
                return x.view(new_shape).permute(0, 2, 1, 3)

        def run():
            torch.compile(Heads())(torch.ones(2, 3, 16))
    """,
    "unfreeze_backbone_after_warmup": """
        import torch
        import torch.nn as nn

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.backbone = nn.Linear(4, 8)
                self.head = nn.Linear(8, 2)

            def forward(self, x):
                return self.head(torch.relu(self.backbone(x)))

        def run():
            model = Model()
            compiled = torch.compile(model)
            for epoch in range(3):
                for p in model.backbone.parameters():
                    p.requires_grad_(epoch > 0)
                compiled(torch.ones(2, 4)).sum().backward()
    """,
    "loop_bound_argument": """
        import torch

        @torch.compile
        def power_iteration(a, v, n_iters):
            for _ in range(n_iters):
                v = a @ v
                v = v / v.norm()
            return v

        def run():
            a = torch.eye(3) * 2
            for n in (1, 2, 4):
                power_iteration(a, torch.ones(3), n)
    """,
    "loss_flags_cache_entries": """
        import torch
        import torch.nn.functional as F

        @torch.compile
        def gan_loss(logits, target_is_real, mode="vanilla", for_discriminator=True, label_smoothing=0.0):
            if mode == "vanilla":
                target = (1.0 - label_smoothing) if target_is_real else 0.0
                return F.binary_cross_entropy_with_logits(logits, torch.full_like(logits, target))
            if for_discriminator:
                return F.relu(1.0 - logits).mean() if target_is_real else F.relu(1.0 + logits).mean()
            return -logits.mean()

        def run():
            logits = torch.randn(4)
            for mode in ("vanilla", "hinge"):
                for _ in range(2):
                    gan_loss(logits, True, mode, True, 0.1)
                    gan_loss(logits, False, mode, True, 0.0)
                    gan_loss(logits, True, mode, False)
    """,
    "expert_frames_under_no_grad": """
        import torch
        import torch.nn as nn

        class Expert(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)

            def forward(self, x):
                return self.fc(x)

        class Experts(nn.Module):
            def __init__(self):
                super().__init__()
                self.experts = nn.ModuleList([Expert() for _ in range(2)])

            def forward(self, x, idx):
                out = torch.zeros_like(x)
                for i, expert in enumerate(self.experts):
                    (rows,) = torch.where(idx == i)
                    if rows.numel() == 0:
                        continue
                    out[rows] = expert(x[rows])
                return out

        def run():
            layer = torch.compile(Experts())
            x, idx = torch.randn(6, 4), torch.tensor([0, 1, 0, 1, 0, 1])
            layer(x, idx)
            with torch.no_grad():
                layer(x, idx)
    """,
    "generated_sequence_grows": """
        import torch

        @torch.compile
        def next_logits(tokens, temperature):
            return (tokens.float().cumsum(-1)[:, -1:] / temperature).sin()

        def run():
            tokens = torch.zeros(2, 3, dtype=torch.long)
            for _ in range(3):
                logits = next_logits(tokens, 0.7)
                tokens = torch.cat([tokens, (logits > 0).long()], dim=1)
    """,
    "assume_constant_result_helper": """
        import torch

        @torch._dynamo.assume_constant_result
        def scale_factor():
            import importlib.util
            return 2.0 if importlib.util.find_spec("json") else 1.0

        @torch.compile
        def f(x):
            return x * scale_factor()

        def run():
            f(torch.ones(3))
    """,
    "dataclass_replace_config": """
        import dataclasses
        import torch
        import torch.nn as nn

        @dataclasses.dataclass(frozen=True)
        class Cfg:
            dim: int = 8
            heads: int = 2
            max_len: int = 16

            def with_overrides(self, **kwargs):
                return dataclasses.replace(self, **kwargs)

        class Attn(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.heads, self.max_len = cfg.heads, cfg.max_len
                self.proj = nn.Linear(cfg.dim, cfg.dim)

            def forward(self, x):
                b, t, d = x.shape
                return self.proj(x).view(b, t, self.heads, d // self.heads)[:, : self.max_len]

        def run():
            cfg = Cfg().with_overrides(heads=4, max_len=12)
            torch.compile(Attn(cfg))(torch.ones(2, 3, 8))
    """,
    "requires_grad_of_compiled_output": """
        import torch
        import torch.nn as nn

        class Gen(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)

            def forward(self, z: torch.Tensor) -> torch.Tensor:
                return torch.tanh(self.fc(z))

        class Disc(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 1)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.fc(x)

        def run():
            G, D = torch.compile(Gen()), torch.compile(Disc())
            real = torch.randn(3, 4)
            with torch.no_grad():
                fake = G(torch.randn(3, 4))
            D(real)
            D(fake)
            fake = G(torch.randn(3, 4))
            D(fake).sum().backward()
    """,
    "resume_frame_recompiles_alone": """
        import torch
        import torch.nn as nn

        @torch.compile
        def train_step(model, x, lr):
            loss = model(x).pow(2).mean()
            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p.add_(p.grad, alpha=-lr)
                    p.grad = None
            return loss.detach()

        def run():
            model = nn.Linear(4, 1)
            for step in range(4):
                train_step(model, torch.ones(2, 4), 0.1 / (1 + step))
    """,
    "static_and_class_method_defaults": """
        import torch
        import torch.nn as nn

        class M(nn.Module):
            @staticmethod
            def emb(t, dim, period=10000):
                return t * period + dim

            def reg(self, t, k=3):
                return t * k

            @classmethod
            def cm(cls, t, j=5):
                return t + j

            def forward(self, t):
                return self.emb(t, 4) + self.reg(t) + self.cm(t)

        def run():
            torch.compile(M())(torch.ones(2))
    """,
    "lora_injected_by_named_modules": """
        from collections import OrderedDict

        import torch
        import torch.nn as nn

        class LoRALinear(nn.Module):
            def __init__(self, base, r=4, alpha=8.0):
                super().__init__()
                self.base = base
                self.scaling = alpha / r
                self.lora_a = nn.Parameter(torch.zeros(r, base.in_features))
                self.lora_b = nn.Parameter(torch.zeros(base.out_features, r))
                self.enabled = True

            def forward(self, x):
                out = self.base(x)
                if self.enabled:
                    out = out + (x @ self.lora_a.T @ self.lora_b.T) * self.scaling
                return out

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.ModuleDict(dict(
                    proj=nn.Linear(4, 4),
                    mlp=nn.Sequential(OrderedDict(fc=nn.Linear(4, 8), act=nn.GELU(), out=nn.Linear(8, 4))),
                ))
                self.head = nn.Linear(4, 2)

            def forward(self, x):
                return self.head(self.body.mlp(self.body.proj(x)))

        def inject(model, targets):
            for name, module in list(model.named_modules()):
                for child_name, child in list(module.named_children()):
                    if isinstance(child, nn.Linear) and child_name in targets:
                        setattr(module, child_name, LoRALinear(child))

        def set_enabled(model, flag):
            for m in model.modules():
                if isinstance(m, LoRALinear):
                    m.enabled = flag

        def run():
            model = Net()
            inject(model, tuple("proj,fc".split(",")))
            compiled = torch.compile(model)
            compiled(torch.ones(2, 4))
            set_enabled(model, False)
            compiled(torch.ones(2, 4))
    """,
    "module_compiled_not_its_class": """
        import torch
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self, p):
                super().__init__()
                self.fc = nn.Linear(4, 4)
                self.drop = nn.Dropout(p)

            def forward(self, x):
                return self.drop(self.fc(x))

        def run():
            teacher, student = Net(0.1), Net(0.3)
            teacher.eval()
            teacher_fwd = torch.compile(teacher)
            for _ in range(2):
                with torch.no_grad():
                    teacher_fwd(torch.ones(2, 4))
                student(torch.ones(2, 4)).sum().backward()
    """,
    "dynamic_true_sampling_settings": """
        import torch

        @torch.compile(dynamic=True)
        def sample_next(logits, temperature, top_k):
            if temperature <= 0.0:
                return torch.argmax(logits, dim=-1, keepdim=True)
            logits = logits / temperature
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits = logits.masked_fill(logits < v[:, [-1]], float("-inf"))
            return torch.softmax(logits, dim=-1)

        def run():
            logits = torch.randn(2, 16)
            for temperature, top_k in [(0.0, None), (0.8, 4), (1.2, None), (0.7, 5)]:
                sample_next(logits, temperature, top_k)
    """,
    "guards_of_a_failed_inline_are_dropped": """
        import torch
        import torch.nn as nn

        class Chatty(nn.Module):
            def __init__(self):
                super().__init__()
                self.k = 4

            def forward(self, x):
                y = x * self.k
                print("scaled")
                return y + 1

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.chatty = Chatty()
                self.bias = 0.5

            def forward(self, x):
                return self.chatty(x) + self.bias

        def run():
            torch.compile(Net())(torch.ones(2, 3))
    """,
    "frozen_reference_by_deepcopy": """
        import copy

        import torch
        import torch.nn as nn

        class Policy(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)
                self.drop = nn.Dropout(0.1)

            def forward(self, x):
                return self.drop(self.fc(x))

        @torch.compile
        def margin(policy, reference, x, beta):
            with torch.no_grad():
                ref = reference(x)
            return (beta * (policy(x) - ref)).mean()

        def run():
            policy = Policy()
            reference = copy.deepcopy(policy).eval()
            reference.requires_grad_(False)
            for _ in range(2):
                margin(policy, reference, torch.ones(2, 4), 0.1).backward()
    """,
    "grad_mode_branch": """
        import torch

        @torch.compile
        def f(x, scale):
            if torch.is_grad_enabled():
                return x * scale
            with torch.no_grad():
                return x + 1 if torch.is_grad_enabled() else x - scale

        def run():
            f(torch.ones(2), 2.0)
            with torch.no_grad():
                f(torch.ones(2), 2.0)
    """,
    "generator_batches": """
        import torch

        @torch.compile
        def step(x, alpha):
            return x * alpha

        def batches(x, bs):
            for i in range(0, len(x), bs):
                yield x[i:i + bs]

        def run():
            x = torch.randn(64, 4)
            n = 0
            for xb in batches(x, 16):  # a generator of four batches: alpha ramps over them
                step(xb, 0.5 * min(1.0, (n + 1) / 4))
                n += 1
    """,
    "class_attributes_guarded_once": """
        import torch
        from torch import nn

        class Scale:
            k = 3

        class Base(nn.Module):
            use_bias = False

        class Layer(Base):
            j = 5

            def forward(self, x):
                x = x * self.j  # the class dict's guard: on layer 0's Source only
                return x + 1 if self.use_bias else x  # a base class's: `__mro__[1]`

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([Layer(), Layer()])

            def forward(self, x, a, b):
                for layer in self.layers:
                    x = layer(x)
                return x * a.k + b.k  # `a.k` guarded, `b.k` not: one class, one dict

        def run():
            torch.compile(Net())(torch.ones(2), Scale(), Scale())
    """,
    "dataclass_transform_config": """
        from dataclasses import dataclass
        from typing import dataclass_transform

        import torch
        from torch import nn

        @dataclass_transform(kw_only_default=True)
        class BaseConfig:  # transformers' PreTrainedConfig: every subclass a dataclass
            def __init_subclass__(cls, **kwargs):
                super().__init_subclass__(**kwargs)
                dataclass(cls, kw_only=True)

        class NetConfig(BaseConfig):
            n_layers: int = 6
            width: int = 4
            use_bias: bool = True

            def __post_init__(self):
                self.scale = self.width * 2

        class Net(nn.Module):
            def __init__(self, config: NetConfig):
                super().__init__()
                self.layers = nn.ModuleList([nn.Linear(config.width, config.width, bias=config.use_bias)
                                             for _ in range(config.n_layers)])
                self.scale = config.scale

            def train(self, mode=True):  # an override that returns what nn.Module's returns
                out = super().train(mode)
                return out

            def forward(self, x):
                for layer in self.layers:
                    x = layer(x)
                return x * self.scale

        def run():
            net = Net(NetConfig(n_layers=2, width=4, use_bias=False)).eval()
            torch.compile(net)(torch.ones(4))
    """,
    "property_setter_config": """
        import torch

        class Config:  # transformers' `config._attn_implementation`: a property with a setter
            def __init__(self, **kwargs):
                self._impl: str | None = kwargs.pop("impl", None)
                self.n = 2

            @property
            def _impl(self):
                return self._impl_internal

            @_impl.setter
            def _impl(self, value):
                current = getattr(self, "_impl", None)
                chosen = value if not isinstance(value, dict) else value.get("", current)
                self._impl_internal = chosen

        class Net(torch.nn.Module):
            def __init__(self, config):
                super().__init__()
                self.config = config
                self.config._impl_internal = "sdpa" if self.config._impl is None else self.config._impl

            def forward(self, x):
                x = x * self.config.n
                if self.config._impl == "sdpa":  # the getter, inlined: `_impl_internal` guarded
                    return x + 1
                return x - 1

        def run():
            net = Net(Config())
            torch.compile(net)(torch.ones(2))
    """,
    "shared_config_first_source": """
        import torch
        from torch import nn

        class Config:
            def __init__(self):
                self.k = 3
                self.j = 4

        class Attention(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.config = config  # the model's config object, shared

            def forward(self, x):
                return x * self.config.k  # guarded as `L['self'].config.k`: the object's first Source

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.config = Config()
                self.attn = Attention(self.config)

            def forward(self, x):
                x = x + self.config.j
                return self.attn(x)

        def run():
            torch.compile(Model())(torch.ones(2))
    """,
    "starred_shape_tuple": """
        import torch
        from torch import nn

        class Attention(nn.Module):
            def __init__(self):
                super().__init__()
                self.head_dim = 2

            def forward(self, x):
                input_shape = x.shape[:-1]
                hidden_shape = (*input_shape, -1, self.head_dim)  # a tuple of unknown length
                return x.view(hidden_shape).sum(-1)  # the op uses `head_dim`: guarded

        def run():
            torch.compile(Attention())(torch.ones(3, 4))
    """,
    "class_name_in_fstring": """
        import torch
        from torch import nn

        class Block(nn.Module):
            def forward(self, x):
                label = f"{self.__class__.__name__}.forward"  # transformers' deprecate_kwarg wrapper
                return x + len(label)

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.blocks = nn.ModuleList([Block(), Block()])

            def forward(self, x):
                for block in self.blocks:
                    x = block(x)
                return x

        def run():
            torch.compile(Net())(torch.ones(2))
    """,
    "last_partial_batch": """
        import torch

        @torch.compile
        def step(x, w):
            return (x @ w).relu().sum()

        def run():
            data, w = torch.randn(10, 3), torch.randn(3, 2)
            order = torch.randperm(10)
            for start in range(0, 10, 4):  # batches of 4, 4 and 2: the last one recompiles
                idx = order[start:start + 4]
                step(data[idx] * 0.5, w)
    """,
    "dataloader_schedule": """
        import torch
        from torch.utils.data import DataLoader, TensorDataset

        @torch.compile
        def step(x, y, temperature):
            return torch.nn.functional.cross_entropy(x.flatten(1) / temperature, y)

        def run():
            images = 0.5 + torch.rand(10, 1, 2, 2) * torch.randn(10, 2, 1, 1)  # broadcast: (10, 2, 2, 2)
            labels = torch.randint(0, 8, (10,))
            loader = DataLoader(TensorDataset(images, labels), batch_size=4)  # 4, 4, then 2
            total, done = 2 * len(loader), 0
            for _ in range(2):
                for x, y in loader:
                    step(x, y, 2.0 - done / total)
                    done += 1
    """,
    "dict_update_config": """
        import torch
        from torch import nn

        class Config:
            defaults = {"layers": 3, "scale": 0.5}

            def __init__(self, **overrides):
                values = dict(self.defaults)
                values.update(overrides)  # the script's choice wins over the default
                for key, value in values.items():
                    setattr(self, key, value)

        class Net(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.layers = nn.ModuleList([nn.Dropout(0.1) for _ in range(config.layers)])  # p, training
                self.scale = config.scale

            def forward(self, x):
                for layer in self.layers:
                    x = layer(x) * self.scale
                return x

        def run():
            torch.compile(Net(Config(layers=1, scale=2.0)))(torch.ones(2))
    """,
    "dataclass_fields_split": """
        from dataclasses import dataclass, field

        import torch
        from torch import nn

        @dataclass
        class Config:
            width: int = 2
            extra: dict = field(default_factory=dict)

            @classmethod
            def from_dict(cls, raw):
                config = cls(**{k: v for k, v in raw.items() if k in cls.__dataclass_fields__})
                config.extra.update({k: v for k, v in raw.items() if k not in cls.__dataclass_fields__})
                return config

        class Net(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.mode = config.extra.get("mode", "plain")  # a key the dataclass does not declare
                self.k = 3

            def forward(self, x):
                if self.mode == "scaled":
                    x = x * self.k  # read only on the path the script's config picks
                return x

        def run():
            torch.compile(Net(Config.from_dict({"width": 3, "mode": "scaled"})))(torch.ones(2))
    """,
    "standardized_batches": """
        import torch

        @torch.compile
        def step(x):
            return x.relu().sum()

        def run():
            data = torch.randn(10, 3) @ torch.randn(3, 2)  # (10, 2)
            data = (data - data.mean(dim=0, keepdim=True)) / data.std(dim=0, keepdim=True)
            for start in range(0, data.shape[0], 4):  # 4, 4, then 2: the last one recompiles
                step(data[start:start + 4])
    """,
    "class_name_after_type": """
        import torch
        from torch import nn

        def wrapper(*args):
            name = f"{args[0].__class__.__name__}.forward"  # transformers' deprecate_kwarg
            return args[0].inner(args[1]) + len(name)

        class Block(nn.Module):
            def inner(self, x):
                return x + 1

            def forward(self, x):
                return wrapper(self, x)  # guarded: `L['self'].a.__class__.__name__`

        class TypeFirst(nn.Module):
            def inner(self, x):
                return x + 2

            def forward(self, x):
                same = type(self).forward is TypeFirst.forward  # the class reached through type() first
                return wrapper(self, x) if same else x  # its name guarded as `type(...).__name__`

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = Block()
                self.b = TypeFirst()

            def forward(self, x):
                return self.b(self.a(x))

        def run():
            torch.compile(Net())(torch.ones(2))
    """,
    "module_called_beside_its_wrapper": """
        import torch
        from torch import nn

        class Net(nn.Module):
            def forward(self, x, flag=False):
                return x + 1 if flag else x - 1

        def run():
            net = Net()
            compiled = torch.compile(net)  # a wrapper: only its calls are compiled
            compiled(torch.ones(2))
            net(torch.ones(2), flag=True)  # the module itself, called eagerly: no recompile
            compiled(torch.ones(2))
    """,
    "uncertain_raise_substring_and_tracing_state": """
        import re

        import torch
        from torch import nn


        def parse(text):
            found = re.match(r"([0-9]+)[.]([0-9]+)", text)
            if not found:
                raise ValueError(text)  # only when the text does not parse: the walk cannot tell
            return int(found.group(1))


        def fused_available():
            try:
                return parse(torch.__version__) >= 2
            except ValueError:
                return False


        class Block(nn.Module):
            def __init__(self, impl="sdpa"):
                super().__init__()
                self.fused = fused_available()
                self.impl = impl
                self.scale = 2.0
                self.q = 3.0
                self.k = 4.0

            def forward(self, x):
                if self.fused:  # True at runtime: the handler's `False` is not the answer
                    x = x * self.scale
                if "flash" in self.impl:  # a substring test on a known string
                    x = x + self.q
                else:
                    x = x + self.k
                if torch.compiler.is_exporting():  # a tracing-state function: False under torch.compile
                    x = x - self.q
                return x


        def run():
            torch.compile(Block())(torch.ones(2))
    """,
    "mutable_mapping_registry": """
        from collections.abc import MutableMapping
        import torch


        def f_sdpa(x, dropout=0.0, scale=None):  # its defaults: reached through the registry dict
            if scale is None:
                return x * 2
            return x * scale


        def f_eager(x):
            return x


        class General(MutableMapping):
            _global_mapping = {}

            def __init__(self):
                self._local_mapping = {}

            def __getitem__(self, key):
                if key in self._local_mapping:
                    return self._local_mapping[key]
                return self._global_mapping[key]

            def __setitem__(self, key, value):
                self._local_mapping.update({key: value})

            def __delitem__(self, key):
                del self._local_mapping[key]

            def __iter__(self):
                return iter({**self._global_mapping, **self._local_mapping})

            def __len__(self):
                return len(self._global_mapping.keys() | self._local_mapping.keys())


        class Interface(General):
            _global_mapping = {"sdpa": f_sdpa}

            def get_interface(self, impl, default):
                if impl is None:
                    pass
                elif impl != "eager" and impl not in self:  # Mapping.__contains__, inlined
                    raise KeyError(impl)
                return super().get(impl, default)  # Mapping.get, then __getitem__


        FUNCS = Interface()


        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.impl = "sdpa"

            def forward(self, x):
                fn = FUNCS.get_interface(self.impl, f_eager)
                return fn(x)


        m = torch.compile(M())

        def run():
            m(torch.ones(2))
    """,
    "and_chain_hands_on_a_module_flag": """
        import os

        import torch
        import torch.nn.functional as F
        from torch import nn


        def attend(module, q, k, v, mask=None, is_causal=None):
            is_causal = is_causal if is_causal is not None else getattr(module, "is_causal", True)
            is_causal = module.q_len > 1 and mask is None and is_causal  # handed on: guarded where sdpa takes it
            return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=is_causal)


        class Attn(nn.Module):
            def __init__(self):
                super().__init__()
                self.is_causal = True
                self.q_len = int(os.environ.get("Q_LEN", "4"))

            def forward(self, x):
                return attend(self, x, x, x)


        def run():
            torch.compile(Attn())(torch.ones(1, 2, 4, 8))
    """,
    "class_attrs_of_objects_built_in_frame": """
        import torch


        class Layer:
            is_compileable = False

            def __init__(self, size):
                self.size = size


        class FullLayer(Layer):
            is_sliding = False


        class SlidingLayer(Layer):
            is_sliding = True


        MAPPING = {"full": FullLayer, "sliding": SlidingLayer}


        @torch.compile
        def f(x, kinds):
            layers = [MAPPING[kind](2) for kind in kinds]  # built in the frame from classes read from outside
            for layer in layers:
                if layer.is_sliding:  # read through the class: G['MAPPING']['full'].is_sliding
                    x = x * 2
                if not layer.is_compileable:  # a base class's attribute, read the same way
                    x = x + layer.size
            return x


        def run():
            f(torch.ones(2), ["full", "sliding"])
    """,
    "dict_subclass_registry": """
        from collections import OrderedDict

        import torch
        from torch import nn


        class GELU(nn.Module):
            def __init__(self, approximate="none"):
                super().__init__()
                self.approximate = approximate

            def forward(self, x):
                return nn.functional.gelu(x, approximate=self.approximate)


        class Clipped(nn.Module):
            def __init__(self, low, high):
                super().__init__()
                self.low, self.high = low, high

            def forward(self, x):
                return torch.clamp(x, self.low, self.high)


        class ClassInstantier(OrderedDict):
            def __getitem__(self, key):
                content = super().__getitem__(key)  # dict's own, on the items the registry was built with
                cls, kwargs = content if isinstance(content, tuple) else (content, {})
                return cls(**kwargs)


        ACT2FN = ClassInstantier({"gelu": GELU, "gelu_tanh": (GELU, {"approximate": "tanh"}), "clip": (Clipped, {"low": -1, "high": 1})})


        class MLP(nn.Module):
            def __init__(self, act="gelu_tanh"):
                super().__init__()
                self.fc = nn.Linear(4, 4)
                self.act = ACT2FN[act]
                self.plain = ACT2FN["gelu"]  # a class alone: `isinstance(content, tuple)` is False
                self.clip = ACT2FN["clip"]

            def forward(self, x):
                return self.clip(self.act(self.plain(self.fc(x))))


        def run():
            torch.compile(MLP())(torch.ones(2, 4))
    """,
    "namedtuple_specs": """
        from typing import NamedTuple

        import torch
        from torch import nn


        class Spec(NamedTuple):
            width: int
            norm: bool
            act: str = "relu"


        def specs(n):
            out = [Spec(4, True)]
            for _ in range(n - 1):
                out.append(Spec(4, False, act="tanh"))
            return out


        class Net(nn.Module):
            def __init__(self, n=2):
                super().__init__()
                layers = []
                for spec in specs(n):
                    layers.append(nn.Linear(spec.width, spec.width))
                    if spec.norm:  # a field of a NamedTuple built in __init__
                        layers.append(nn.LayerNorm(spec.width))
                    layers.append(nn.ReLU() if spec.act == "relu" else nn.Tanh())
                self.main = nn.Sequential(*layers)

            def forward(self, x):
                return self.main(x)


        @torch.compile
        def scaled(x, spec):
            return x * spec.width if spec.norm else x  # a NamedTuple argument


        def run():
            torch.compile(Net())(torch.ones(2, 4))
            scaled(torch.ones(2), Spec(3, True))
    """,
    "second_schedule_changes_after_first_went_dynamic": """
        import torch


        @torch.compile
        def kd_loss(x, temperature, alpha):
            return (x / temperature).sum() * alpha


        def run():
            x = torch.ones(4)
            step = 0
            for epoch in range(3):
                temperature = 4.0 - epoch  # changes once per epoch, after alpha has gone dynamic
                for _ in range(3):
                    alpha = min(1.0, (step + 1) / 3)  # ramps over the first epoch
                    kd_loss(x, temperature, alpha)
                    step += 1
    """,
    "none_or_mask_from_an_undecided_branch": """
        import torch
        import torch.nn.functional as F
        from torch import nn


        def make_mask(x, q_len):
            if x.shape[-1] == q_len:  # a size: torch knows it while tracing, the static pass does not
                return None
            return torch.ones(q_len, x.shape[-1]) > 0


        class Attn(nn.Module):
            def __init__(self):
                super().__init__()
                self.is_causal = True

            def forward(self, x):
                mask = make_mask(x, x.shape[-2])  # None or a mask: `mask is None` is not known statically
                is_causal = mask is None and self.is_causal
                return F.scaled_dot_product_attention(x, x, x, attn_mask=mask, is_causal=is_causal)


        def run():
            torch.compile(Attn())(torch.ones(1, 2, 4, 4))
    """,
    "sequence_view_iterated_by_index": """
        from collections.abc import Sequence

        import torch


        class Config:
            def __init__(self, layer_types):
                self.num_layers = len(layer_types)
                self.layer_types = layer_types


        class LayerView(Sequence):
            # per-layer views of a config, iterated by index (`Sequence.__iter__`)

            def __init__(self, config):
                self._config = config

            def __len__(self):
                return self._config.num_layers

            def __getitem__(self, index):
                if index >= len(self):
                    raise IndexError(index)
                return self._config.layer_types[index]


        CONFIG = Config(["full", "sliding"])


        @torch.compile
        def f(x):
            for kind in LayerView(CONFIG):
                if kind == "sliding":
                    x = x * 2
                else:
                    x = x + 1
            return x


        def run():
            f(torch.ones(2))
    """,
    "enum_member_value_and_name": '''
        import enum

        import torch


        class Animal(enum.Enum):
            COW = "moo"
            DOG = "woof"


        @torch.compile
        def f(x, a):
            # `.value`/`.name` inline enum's property.__get__, which reads the member's `_value_`/`_name_`
            if a.value == "moo":
                x = x + 1
            return x * len(a.name)


        def run():
            f(torch.ones(3), Animal.COW)
    ''',
    "len_of_string_argument": '''
        import torch


        @torch.compile
        def f(x, tag):
            return x * len(tag)  # constant-folded: EQUALS_MATCH on the string


        def run():
            f(torch.ones(3), "abc")
    ''',
    "graph_without_ops": '''
        import torch


        class ScalarOutput(torch.nn.Module):
            def forward(self, x):
                return x.shape[1] + x.size(0) + x.dim()  # static sizes: constants, no graph node


        m = torch.compile(ScalarOutput())


        def run():
            m(torch.randn(3, 2))
    ''',
    "autograd_function_apply": '''
        import torch


        class Clone(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.clone()  # inlined into one autograd_function_apply node

            @staticmethod
            def backward(ctx, grad):
                return grad + 1


        @torch.compile
        def f(x):
            return Clone.apply(x)


        def run():
            f(torch.randn(3, 2))
    ''',
    "assume_constant_result_slice": '''
        import torch
        import torch._dynamo as torchdynamo


        class Head(torch.nn.Module):
            @torchdynamo.assume_constant_result
            def length(self, y):
                return y.int().item()  # runs eagerly: its result is a constant of the graph

            def forward(self, x, y):
                return x[: self.length(y)]  # a getitem node


        m = torch.compile(Head())


        def run():
            m(torch.randn(3, 2), torch.tensor(4))
    ''',
    "compiled_closure_over_main_locals": '''
        import functools
        import time
        import torch


        def timed(fn):
            @functools.wraps(fn)
            def wrapper(*args, **kwargs):
                t0 = time.perf_counter()
                out = fn(*args, **kwargs)
                wrapper.last_seconds = time.perf_counter() - t0
                return out
            wrapper.last_seconds = 0.0
            return wrapper


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(4, 4)
                self.eps = 1e-5

            def forward(self, x, task):
                return self.lin(x) + self.eps


        def main():
            model = Net()

            @timed
            @torch.compile
            def evaluate(x, task):
                return model(x, task)

            model.eval()
            with torch.no_grad():
                for task in ["a", "b"]:
                    evaluate(torch.ones(2, 4), task)


        def run():
            main()
    ''',
    "dataclass_default_factory_and_empty_recompile": '''
        from dataclasses import dataclass, field
        from typing import Dict
        import torch


        @dataclass
        class TaskSpec:
            kind: str
            weight: float = 1.0


        def _default_tasks():
            return {"churn": TaskSpec(kind="cls"), "spend": TaskSpec(kind="reg", weight=0.5)}


        @dataclass
        class Config:
            scale: float = 2.0
            tasks: Dict[str, TaskSpec] = field(default_factory=_default_tasks)

            @classmethod
            def small(cls):
                return cls()

            @property
            def task_names(self):
                return list(self.tasks.keys())


        @torch.compile
        def f(x, cfg, task):
            if cfg.tasks[task].kind == "cls":
                return x * cfg.scale
            return x


        def run():
            cfg = getattr(Config, "small")()
            names = cfg.task_names
            for step in range(4):
                f(torch.ones(2), cfg, names[step % len(names)])
    ''',
    "moduledict_setitem_and_contains": '''
        import torch
        from torch import nn


        class Cfg:
            n_importance = 4


        class R(nn.Module):
            def __init__(self, cfg, coarse, fine=None):
                super().__init__()
                self.cfg = cfg
                self.nets = nn.ModuleDict({"coarse": coarse})
                if fine is not None:
                    self.nets["fine"] = fine

            @property
            def hierarchical(self):
                return "fine" in self.nets and self.cfg.n_importance > 0

            def forward(self, x):
                x = self.nets["coarse"](x)
                if self.hierarchical:
                    x = self.nets["fine"](x)
                return x


        def run():
            r = R(Cfg(), nn.Linear(2, 2), nn.LayerNorm(2))
            torch.compile(r)(torch.ones(2, 2))
    ''',
    "optimizer_param_groups_in_compiled_step": '''
        import torch


        def train_step(model, optimizer, x, lr):
            for group in optimizer.param_groups:
                group["lr"] = lr
            loss = model(x).sum()
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            return loss


        train_step = torch.compile(train_step)


        def run():
            model = torch.nn.Linear(3, 3)
            decay = [model.weight]
            no_decay = [model.bias]
            opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}],
                                    lr=1e-3, betas=(0.9, 0.95))
            for step in range(3):
                train_step(model, opt, torch.randn(2, 3), 1e-3 * (step + 1))
    ''',
    "sgd_param_groups_gain_capturable": '''
        import torch


        @torch.compile
        def f(x, opt, lr):
            for g in opt.param_groups:
                g["lr"] = lr
            return x * 2


        def run():
            m = torch.nn.Linear(2, 2)
            opt = torch.optim.SGD(m.parameters(), lr=0.1)
            for step in range(3):
                f(torch.ones(2), opt, 1e-3 * (step + 1))
    ''',
    "dict_from_outside_changed_in_frame": '''
        import torch


        @torch.compile
        def f(x, state, lr):
            state["lr"] = lr
            return x * 2


        def run():
            state = {"lr": 0.1, "betas": (0.9, 0.99), "eps": 1e-8, "flag": False, "params": [1, 2]}
            f(torch.ones(2), state, 0.2)
    ''',
    "dict_in_list_changed_then_break": '''
        import torch


        @torch.compile
        def f(x, groups, lr):
            for g in groups:
                g["lr"] = lr
            y = x * 2
            torch._dynamo.graph_break()
            return y + 1


        def run():
            groups = [{"lr": 0.1, "eps": 1e-8}, {"lr": 0.1, "eps": 1e-6}]
            for step in range(3):
                f(torch.ones(2), groups, 1e-3 * (step + 1))
    ''',
    "autograd_function_backward_traced_with_grad": '''
        import torch


        class STE(torch.autograd.Function):
            @staticmethod
            def forward(ctx, z, zq):
                return zq

            @staticmethod
            def backward(ctx, grad):
                return grad, None


        @torch.compile
        def f(z, zq):
            return STE.apply(z, zq) * 2


        def run():
            z = torch.randn(3, requires_grad=True)
            f(z, torch.randn(3))
    ''',
    "autograd_function_forward_only_under_no_grad": '''
        import torch


        class STE(torch.autograd.Function):
            @staticmethod
            def forward(ctx, z, zq):
                return zq

            @staticmethod
            def backward(ctx, grad):
                return grad, None


        @torch.compile
        def f(z, zq):
            return STE.apply(z, zq) * 2


        def run():
            z = torch.randn(3, requires_grad=True)
            with torch.no_grad():
                f(z, torch.randn(3))
    ''',
    "clip_grad_norm_max_norm_guarded": '''
        import torch


        @torch.compile
        def step(model, x, clip):
            loss = model(x).sum()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            return loss


        def run():
            m = torch.nn.Linear(3, 3)
            step(m, torch.randn(2, 3), 1.0)
    ''',
    "decorator_registry_filled_at_import": '''
        import torch
        import torch.nn.functional as F

        ACTIVATIONS = {}


        def register_activation(name):
            def deco(fn):
                ACTIVATIONS[name] = fn
                return fn
            return deco


        @register_activation("silu")
        def _silu(x):
            return F.silu(x)


        @register_activation("gelu")
        def _gelu(x):
            return F.gelu(x, approximate="tanh")


        class Mixer(torch.nn.Module):
            def __init__(self, act):
                super().__init__()
                self.act = ACTIVATIONS[act]
                self.proj = torch.nn.Linear(4, 4)

            def forward(self, x):
                return self.act(self.proj(x))


        def run():
            m = torch.compile(Mixer("gelu"))
            m(torch.ones(2, 4))
    ''',
    "closure_cell_object_first_reached_through_module": '''
        import torch


        class Cfg:
            def __init__(self):
                self.scale = 2.0
                self.kind = "cls"


        class Net(torch.nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.cfg = cfg
                self.lin = torch.nn.Linear(2, 2)

            def forward(self, x):
                return self.lin(x) * self.cfg.scale


        def main():
            cfg = Cfg()
            model = Net(cfg)

            @torch.compile
            def evaluate(x):
                out = model(x)
                if cfg.kind == "cls":  # the same object as model.cfg: guarded through L['model'].cfg
                    return out.argmax(-1)
                return out

            evaluate(torch.ones(3, 2))


        def run():
            main()
    ''',
    "rays_in_chunks_last_one_smaller": '''
        import torch


        def look_at(eye):
            eye = torch.tensor(eye, dtype=torch.float32)
            c2w = torch.eye(4)
            c2w[:3, 3] = eye
            return c2w


        def get_rays(H, W, focal, c2w):
            j, i = torch.meshgrid(torch.arange(H, dtype=torch.float32),
                                  torch.arange(W, dtype=torch.float32), indexing="ij")
            dirs = torch.stack([(i - W * 0.5) / focal, -(j - H * 0.5) / focal, -torch.ones_like(i)], -1)
            rays_d = dirs @ c2w[:3, :3].T
            rays_o = c2w[:3, 3].expand_as(rays_d)
            return rays_o.reshape(-1, 3), rays_d.reshape(-1, 3)


        @torch.compile
        def render(rays_o, rays_d):
            return (rays_o + rays_d).sum(-1)


        def run():
            o, d = get_rays(16, 16, 20.0, look_at((4.0, 0.0, 1.0)))
            chunk = 96
            for s in range(0, o.shape[0], chunk):
                render(o[s:s + chunk], d[s:s + chunk])
    ''',
    "windowed_batches_last_one_smaller": '''
        import math

        import torch


        def make_series(length, n_series=3, seed=0):
            g = torch.Generator().manual_seed(seed)
            t = torch.arange(length, dtype=torch.float32)
            series = []
            for i in range(n_series):
                phase = torch.rand(1, generator=g).item() * 2 * math.pi  # a Python float in eager code
                series.append(torch.sin(2 * math.pi * t / 12.0 + phase) + 0.01 * (i + 1) * t)
            return torch.stack(series)


        def windows(series, lookback, horizon):
            xs, ys = [], []
            for s in series:
                w = s.unfold(0, lookback + horizon, 2)
                xs.append(w[:, :lookback])
                ys.append(w[:, lookback:])
            return torch.cat(xs), torch.cat(ys)


        def batches(x, y, size):
            order = torch.randperm(x.shape[0])
            for start in range(0, x.shape[0], size):
                idx = order[start:start + size]
                yield x[idx], y[idx]


        @torch.compile
        def step(batch):
            x, y = batch
            return ((x.mean(-1, keepdim=True) - y) ** 2).mean()


        def run():
            x, y = windows(make_series(60), 8, 4)
            for batch in batches(x, y, 32):
                step(batch)
    ''',
    "sampling_loop_over_timesteps": '''
        import torch


        class Denoiser(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(4, 4)

            def forward(self, x, t):
                if not torch.is_tensor(t):
                    t = torch.full((x.shape[0],), t, dtype=torch.long)
                return self.lin(x) * (t[:, None].float() / 100.0)


        def run():
            model = torch.compile(Denoiser(), dynamic=False)
            timesteps = (torch.arange(4) * 25).flip(0)  # 75, 50, 25, 0
            x = torch.randn(2, 4)
            with torch.no_grad():
                for t in timesteps.tolist():
                    x = x - model(x, t)
    ''',
    "loss_scale_grows_after_finite_steps": '''
        import torch


        @torch.compile
        def scaled_loss(x, scale):
            return (x * x).sum() * scale


        def run():
            w = torch.randn(4, requires_grad=True)
            scale, good = 1024.0, 0
            for step in range(4):
                loss = scaled_loss(w, scale)
                loss.backward()
                norm = torch.nn.utils.clip_grad_norm_([w], 1.0)
                if not torch.isfinite(norm):  # an overflow: rare, the healthy path is the run's
                    scale /= 2.0
                    good = 0
                    continue
                good += 1
                if good % 2 == 0:
                    scale *= 2.0
                w.grad = None
    ''',
    "number_read_from_data_each_fold": '''
        import torch


        @torch.compile
        def weighted_bce(logits, targets, pos_weight):
            weight = 1.0 + (pos_weight - 1.0) * targets
            return torch.nn.functional.binary_cross_entropy_with_logits(logits, targets, weight=weight)


        def run():
            g = torch.Generator().manual_seed(0)
            for fold in range(3):
                y = (torch.rand(32, generator=g) < 0.3 + 0.1 * fold).float()
                p = y.mean().item()  # read from the data: another number each fold
                weighted_bce(torch.randn(32), y, (1 - p) / p)
    ''',
    "random_choice_per_step": '''
        import random

        import torch


        @torch.compile
        def f(x, chunk):
            return x[:, :chunk].sum()


        def run():
            rng = random.Random(0)
            for step in range(4):
                f(torch.randn(2, 32), rng.choice([8, 16, 32]))
    ''',
    "frozen_reference_passed_where_the_policy_was": '''
        import copy

        import torch


        class Policy(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.body = torch.nn.Linear(4, 4)
                self.head = torch.nn.Linear(4, 2)

            def forward(self, x):
                return self.head(torch.relu(self.body(x)))


        @torch.compile
        def logprobs(model, x):
            return torch.log_softmax(model(x), dim=-1)


        def run():
            policy = Policy()
            reference = copy.deepcopy(policy).eval().requires_grad_(False)
            x = torch.randn(3, 4)
            logprobs(policy, x)
            with torch.no_grad():
                logprobs(reference, x)
    ''',
    "registry_dict_of_lambdas": '''
        import torch


        class RMSNorm(torch.nn.Module):
            def __init__(self, dim, eps=1e-6):
                super().__init__()
                self.eps = eps
                self.weight = torch.nn.Parameter(torch.ones(dim))

            def forward(self, x):
                return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


        NORMS = {
            "rms": lambda dim, eps: RMSNorm(dim, eps),
            "layer": lambda dim, eps: torch.nn.LayerNorm(dim, eps=eps),
        }


        class Block(torch.nn.Module):
            def __init__(self, kind):
                super().__init__()
                self.norm = NORMS[kind](4, 1e-5)
                self.lin = torch.nn.Linear(4, 4)

            def forward(self, x):
                return self.lin(self.norm(x))


        def run():
            torch.compile(Block("rms"))(torch.randn(2, 4))
    ''',
    "moduledict_indexed_by_names_list": '''
        import torch


        class Tokenizer(torch.nn.Module):
            def __init__(self, cardinalities):
                super().__init__()
                self.names = list(cardinalities)
                self.embeddings = torch.nn.ModuleDict({n: torch.nn.Embedding(c, 4) for n, c in cardinalities.items()})

            def forward(self, x_cat):
                return torch.stack([self.embeddings[name](x_cat[:, i]) for i, name in enumerate(self.names)], dim=1)


        def run():
            tok = torch.compile(Tokenizer({"region": 5, "plan": 3}))
            tok(torch.zeros(2, 2, dtype=torch.long))
    ''',
    "autocast_region_per_fold": '''
        import torch


        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(4, 2)

            def forward(self, x):
                return self.lin(x)


        def run():
            model = Net()
            compiled = torch.compile(model)
            x = torch.randn(3, 4)
            for fold in range(3):
                use_bf16 = fold == 1
                with torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_bf16):
                    compiled(x).float().sum().backward()
                with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_bf16):
                    compiled(x)
    ''',
    "module_identity_picks_the_branch": '''
        import torch


        class Block(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.attn = torch.nn.MultiheadAttention(8, 2, batch_first=True)
                self.ffn = torch.nn.Linear(8, 8)
                self.norm = torch.nn.LayerNorm(8)

            def _residual(self, x, fn):
                h = self.norm(x)
                if fn is self.attn:  # the same module object: only this branch is traced
                    out, _ = self.attn(h, h, h, need_weights=False)
                else:
                    out = fn(h)
                return x + out

            def forward(self, x):
                return self._residual(self._residual(x, self.attn), self.ffn)


        def run():
            torch.compile(Block())(torch.randn(2, 3, 8))
    ''',
    "mha_need_weights_keyword": '''
        import torch


        class Block(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.attn = torch.nn.MultiheadAttention(8, 2, batch_first=True)

            def forward(self, x):
                out, _ = self.attn(x, x, x, need_weights=False)
                return out


        def run():
            torch.compile(Block())(torch.randn(2, 3, 8))
    ''',
    # a decode loop in a skipped frame: `src[:, -1:, :]` is one step long whatever src's length,
    # each step one longer; 1 is specialized, so each grad mode compiles twice (4 graphs)
    "decode_step_of_a_skipped_loop": '''
        import random

        import torch
        import torch.nn as nn


        class Forecaster(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(1, 8)
                self.head = nn.Linear(8, 1)

            def decode(self, tgt: torch.Tensor) -> torch.Tensor:
                return self.head(torch.tanh(self.proj(tgt)))

            def forward(self, src: torch.Tensor, horizon: int, ratio: float = 0.0) -> torch.Tensor:
                dec_input = src[:, -1:, :]
                outputs = []
                for _ in range(horizon):
                    step = self.decode(dec_input)[:, -1:, :]
                    outputs.append(step)
                    if random.random() < ratio:
                        print("teacher forcing")
                    dec_input = torch.cat([dec_input, step.detach()], dim=1)
                return torch.cat(outputs, dim=1)


        def run():
            model = Forecaster()
            model.compile()
            src = torch.randn(4, random.randint(8, 16), 1)  # a context of a length the walk does not know
            model(src, 3)
            with torch.no_grad():
                model(src, 3)
    ''',
    # routing by a tensor whose elements the script wrote: each expert gets two rows, so one graph
    # serves them all (a size the data decides would recompile)
    "known_routing_sizes": '''
        import torch
        import torch.nn as nn


        class Expert(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)

            def forward(self, x):
                return self.fc(x)


        class Experts(nn.Module):
            def __init__(self):
                super().__init__()
                self.experts = nn.ModuleList([Expert() for _ in range(3)])

            def forward(self, x, idx):
                out = torch.zeros_like(x)
                for i, expert in enumerate(self.experts):
                    (rows,) = torch.where(idx == i)
                    out[rows] = expert(x[rows])
                return out


        def run():
            layer = torch.compile(Experts())
            x, idx = torch.randn(6, 4), torch.tensor([0, 1, 2, 2, 1, 0])
            layer(x, idx)
    ''',
    # tokens routed by the data, capped at a capacity: still a size the data decides
    "routed_tokens_capped_by_capacity": '''
        import torch
        import torch.nn as nn


        class Expert(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 8)

            def forward(self, x):
                return self.fc(x)


        class MoE(nn.Module):
            def __init__(self):
                super().__init__()
                self.gate = nn.Linear(8, 4, bias=False)
                self.experts = nn.ModuleList([Expert() for _ in range(4)])

            def forward(self, hidden, capacity: int):
                b, s, d = hidden.shape
                x = hidden.reshape(-1, d)
                idx = self.gate(x).argmax(dim=-1)
                out = torch.zeros_like(x)
                for expert_id, expert in enumerate(self.experts):
                    (token_idx,) = torch.where(idx == expert_id)
                    if token_idx.numel() == 0:
                        continue
                    if token_idx.numel() > capacity:
                        token_idx = token_idx[:capacity]
                    out.index_add_(0, token_idx, expert(x[token_idx]))
                return out.reshape(b, s, d)


        def run():
            torch.manual_seed(0)
            layer = torch.compile(MoE())
            for _ in range(3):
                layer(torch.randn(2, 16, 8), 12)
    ''',
    "module_tree_in_traced_code": '''
        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)
                self.drop = nn.Dropout(0.25)
                self.blocks = nn.ModuleList([nn.Dropout(0.5), nn.Linear(4, 4)])

            def forward(self, x):
                keep = 1.0
                for m in self.modules():
                    if isinstance(m, nn.Dropout):
                        keep *= 1 - m.p
                for name, child in self.named_children():
                    if name == "lin":
                        x = child(x)
                return x * keep


        def run():
            torch.compile(Net())(torch.randn(2, 4))
    ''',
    "flags_by_formatted_name": '''
        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)
                self.output_hidden_states = False

            def forward(self, x):
                wanted = {k: getattr(self, f"output_{k}", False) for k in ("hidden_states",)}
                collected = {k: [] for k, v in wanted.items() if v}
                if len(collected) > 0:
                    x = x * 2
                if any(len(getattr(m, "_forward_hooks", {})) for m in self.modules()):
                    x = x + 1
                return self.lin(x)


        def run():
            torch.compile(Net())(torch.randn(2, 4))
    ''',
    "encoder_layer_fast_path": '''
        import torch
        import torch.nn as nn


        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed = nn.Embedding(50, 16)
                self.layer = nn.TransformerEncoderLayer(16, nhead=2, dim_feedforward=32, batch_first=True)

            def forward(self, tokens):
                return self.layer(self.embed(tokens)).mean(1)


        def run():
            encoder = torch.compile(Encoder().eval())
            with torch.no_grad():
                encoder(torch.randint(0, 50, (2, 5)))
    ''',
    "resume_frame_without_ops": '''
        import torch
        import torch.nn as nn


        class LossScaler:
            def __init__(self, init_scale=2.0 ** 8, backoff=0.5):
                self.scale = init_scale
                self.backoff = backoff


        @torch.compile
        def scaled_step(model, x, scaler):
            loss = model(x).pow(2).mean()
            scaled = loss * scaler.scale
            overflow = not torch.isfinite(scaled).item()
            if overflow:
                scaler.scale *= scaler.backoff
            return overflow


        def run():
            scaled_step(nn.Linear(4, 1), torch.randn(3, 4), LossScaler())
    ''',
    "cond_constant_predicate": '''
        import torch
        import torch.nn as nn


        class Gated(nn.Module):
            def __init__(self):
                super().__init__()
                self.use_relu = True

            def forward(self, x):
                def on(x):
                    return torch.relu(x)

                def off(x):
                    return torch.tanh(x)

                return torch.cond(self.use_relu, on, off, [x])


        def run():
            torch.compile(Gated())(torch.randn(3))
    ''',
    "branch_on_a_static_size": '''
        import torch
        import torch.nn as nn


        class Pick(nn.Module):
            def __init__(self):
                super().__init__()
                self.wide = 2.0
                self.narrow = 3.0

            def forward(self, x):
                if x.shape[-1] > 4 and x.size(0) == 3:
                    return x * self.wide
                return x * self.narrow


        def run():
            torch.compile(Pick())(torch.randn(3, 8))
    ''',
    "config_defaults_decorator": '''
        import functools

        import torch
        import torch.nn as nn


        class Config:
            attribute_map = {"hidden": "width"}

            def __init__(self):
                self.use_cache = True
                self.width = 8

            def __getattribute__(self, key):
                if key != "attribute_map" and key in super().__getattribute__("attribute_map"):
                    key = super().__getattribute__("attribute_map")[key]
                return super().__getattribute__(key)


        def config_defaults(func):
            # transformers' merge_with_config_defaults: an argument not passed comes from the config
            @functools.wraps(func)
            def wrapper(self, *args, **kwargs):
                for name in ["use_cache", "output_router_logits"]:
                    index = None
                    if name in func.__code__.co_varnames:
                        index = func.__code__.co_varnames.index(name) - 1
                    if index is not None and len(args) > index and args[index] is not None:
                        value = args[index]
                    elif kwargs.get(name) is not None:
                        value = kwargs[name]
                    else:
                        value = getattr(self.config, name, None)
                    if value is not None:
                        kwargs[name] = value
                return func(self, *args, **kwargs)

            return wrapper


        class Inner(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.config = config
                self.proj = nn.Linear(8, 8)

            @config_defaults
            def forward(self, x, use_cache=None):
                return self.proj(x) * (2 if use_cache else 1)


        class Outer(nn.Module):
            def __init__(self):
                super().__init__()
                self.model = Inner(Config())

            def forward(self, x):
                return self.model(x)


        def run():
            torch.compile(Outer())(torch.randn(2, 8))
    ''',
    "deepcopy_of_a_config": '''
        import copy
        import dataclasses

        import torch
        import torch.nn as nn


        @dataclasses.dataclass
        class Config:
            width: int = 8
            scale: float = 0.5
            name: str = "tiny"
            flag: bool = True
            extra: object = None
            labels: dict = dataclasses.field(default_factory=lambda: {0: "neg", 1: "pos"})


        class Net(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.config = config
                self.proj = nn.Linear(8, 8)

            def forward(self, x):
                if self.config.flag:
                    x = x + 1
                # transformers' get_text_config(decoder=True) of an encoder-decoder config: every field
                # of the copied object is specialized
                decoder = copy.deepcopy(self.config)
                decoder.width = 16
                return self.proj(x) * decoder.scale


        def run():
            torch.compile(Net(Config()))(torch.randn(2, 8))
    ''',
    "config_attribute_map": '''
        import torch
        import torch.nn as nn


        class Config:
            # transformers' PretrainedConfig: a standard name read through the model's own one
            attribute_map = {"num_layers": "n_layer", "hidden": "width"}

            def __init__(self, n_layer=2, width=8):
                self.n_layer = n_layer
                self.width = width

            def __getattribute__(self, key):
                if key != "attribute_map" and key in super().__getattribute__("attribute_map"):
                    key = super().__getattribute__("attribute_map")[key]
                return super().__getattribute__(key)


        class Layer(nn.Module):
            def __init__(self, config, index):
                super().__init__()
                self.proj = nn.Linear(config.hidden, config.hidden)
                self.scale = 1.0 / (index + 1)

            def forward(self, x):
                return self.proj(x) * self.scale


        class Stack(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.layers = nn.ModuleList([Layer(config, i) for i in range(config.num_layers)])

            def forward(self, x):
                for layer in self.layers:
                    x = layer(x)
                return x


        def run():
            torch.compile(Stack(Config(n_layer=3)))(torch.randn(2, 8))
    ''',
    "signature_of_a_chunk_function": '''
        import inspect

        import torch
        import torch.nn as nn


        def apply_chunking(forward_fn, chunk_size, *inputs):
            # transformers' apply_chunking_to_forward: the chunk function's arity, checked while tracing
            if len(inspect.signature(forward_fn).parameters) != len(inputs):
                raise ValueError("wrong arity")
            if chunk_size > 0:
                return torch.cat([forward_fn(*chunk) for chunk in zip(*(t.chunk(2) for t in inputs))])
            return forward_fn(*inputs)


        class Feed(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(8, 8)
                self.chunk_size = 0

            def forward_chunk(self, x):
                return self.proj(x)

            def forward(self, x):
                return apply_chunking(self.forward_chunk, self.chunk_size, x)


        def run():
            torch.compile(Feed())(torch.randn(4, 8))
    ''',
    "partial_norm_layer": '''
        from functools import partial

        import torch
        import torch.nn as nn

        # timm's style: the block's layers are factories with their hyper-parameters bound
        norm_layer = partial(nn.LayerNorm, eps=1e-6)


        class Block(nn.Module):
            def __init__(self, dim, norm=norm_layer, drop=partial(nn.Dropout, p=0.1)):
                super().__init__()
                self.norm = norm(dim)
                self.drop = drop()

            def forward(self, x):
                return self.drop(self.norm(x))


        def run():
            torch.compile(Block(8))(torch.randn(2, 8))
    ''',
    "class_decorator_sets_forward": '''
    import functools

    import torch
    import torch.nn as nn


    def fused_forward(self, x):
        return torch.relu(x) * self.scale


    def use_implementation(cls=None, *, scale=2.0, fused=True):
        """transformers' style: the class's __init__ and forward replaced by wrappers that dispatch."""
        def wrapper(cls):
            original_init = cls.__init__
            original_forward = cls.forward

            @functools.wraps(original_init)
            def __init__(self, dim, *args, **kwargs):
                original_init(self, dim, *args, **kwargs)
                self.scale = scale
                self.fused = fused

            @functools.wraps(original_forward)
            def forward(self, *args, **kwargs):
                implementation = fused_forward if self.fused else original_forward
                return implementation(self, *args, **kwargs)

            cls.__init__ = __init__
            cls.forward = forward
            return cls

        if cls is not None:
            return wrapper(cls)
        return wrapper


    @use_implementation
    class Experts(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.dim = dim

        def forward(self, x):
            return x[torch.nonzero(x > 0)]  # eager-only: the wrapper never calls it


    @use_implementation(scale=0.5, fused=False)
    class Shared(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.dim = dim

        def forward(self, x):
            return x * self.dim


    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.experts = Experts(8)
            self.shared = Shared(8)

        def forward(self, x):
            return self.experts(x) + self.shared(x)


    def run():
        torch.compile(Block())(torch.randn(2, 8))
''',
    "class_decorator_fills_what_the_class_lacks": '''
    import functools

    import torch
    import torch.nn as nn


    def default_gate(self, x):
        return x * self.gain


    def gated(cls):
        """A class decorator: forward wrapped, a gate given to the classes that have none."""
        original_forward = cls.forward

        @functools.wraps(original_forward)
        def forward(self, x):
            return self._gate(original_forward(self, x))

        if not hasattr(cls, "_gate"):
            cls._gate = default_gate
        cls.forward = forward
        return cls


    @gated
    class Plain(nn.Module):
        def __init__(self):
            super().__init__()
            self.gain = 2.0

        def forward(self, x):
            return x + 1


    @gated
    class OwnGate(nn.Module):
        def __init__(self):
            super().__init__()
            self.shift = 3

        def _gate(self, x):
            return x - self.shift

        def forward(self, x):
            return x * 2


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.plain = Plain()
            self.own = OwnGate()

        def forward(self, x):
            return self.own(self.plain(x))


    def run():
        torch.compile(Net())(torch.randn(4))
''',
    "deep_helper_chain": '''
    import torch

    SCALE = 3


    def h17(x):
        return x * SCALE  # read 18 calls deep: Dynamo inlines the whole chain


    def h16(x):
        return h17(x) + 1


    def h15(x):
        return h16(x) + 1


    def h14(x):
        return h15(x) + 1


    def h13(x):
        return h14(x) + 1


    def h12(x):
        return h13(x) + 1


    def h11(x):
        return h12(x) + 1


    def h10(x):
        return h11(x) + 1


    def h9(x):
        return h10(x) + 1


    def h8(x):
        return h9(x) + 1


    def h7(x):
        return h8(x) + 1


    def h6(x):
        return h7(x) + 1


    def h5(x):
        return h6(x) + 1


    def h4(x):
        return h5(x) + 1


    def h3(x):
        return h4(x) + 1


    def h2(x):
        return h3(x) + 1


    def h1(x):
        return h2(x) + 1


    def h0(x):
        return h1(x) + 1


    @torch.compile
    def f(x):
        return h0(x)


    def run():
        f(torch.ones(2))
''',
    "super_forward_of_a_torch_nn_base": '''
    import torch
    import torch.nn as nn


    class ScaledEmbedding(nn.Embedding):
        """transformers' BartScaledWordEmbedding: nn.Embedding's forward, then a scale."""

        def __init__(self, num, dim, padding_idx, scale=1.0):
            super().__init__(num, dim, padding_idx)
            self.scale = scale

        def forward(self, ids):
            return super().forward(ids) * self.scale


    class Clamped(nn.LayerNorm):
        def forward(self, x):
            return nn.LayerNorm.forward(self, x).clamp(-1, 1)


    class StdConv(nn.Conv2d):
        """timm's StdConv2d: the weight standardized, then nn.Conv2d's own _conv_forward."""

        def forward(self, x):
            weight = self.weight - self.weight.mean(dim=(1, 2, 3), keepdim=True)
            return self._conv_forward(x, weight, self.bias)


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = ScaledEmbedding(10, 8, padding_idx=0, scale=2.0)
            self.norm = Clamped(8)
            self.conv = StdConv(1, 2, 3, padding=1)

        def forward(self, ids):
            h = self.norm(self.embed(ids))
            return self.conv(h.unsqueeze(1))


    def run():
        torch.compile(Net())(torch.tensor([[1, 2, 3]]))
''',
    "conv_layer_tuples": '''
    import torch
    import torch.nn as nn


    class Encoder(nn.Module):
        """A small CNN: Conv2d, Conv1d and ConvTranspose2d keep stride/padding/dilation as tuples
        (torch.nn's `_pair(3)`), which Dynamo guards whole: `L['self'].down.stride == (2, 2)`."""

        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, 8, 3, padding=1)
            self.down = nn.Conv2d(8, 8, (3, 5), stride=2, padding=(1, 2))
            self.up = nn.ConvTranspose2d(8, 4, 2, stride=2)
            self.pool = nn.MaxPool2d(2)
            self.temporal = nn.Conv1d(4, 4, 3, dilation=2)

        def forward(self, x):
            x = self.pool(self.up(self.down(self.stem(x))))
            return self.temporal(x.flatten(2))


    def run():
        torch.compile(Encoder())(torch.randn(1, 3, 16, 16))
''',
    "closure_passed_by_the_caller": """
        import torch

        def f(x):
            def g(y):
                return y + x
            return g

        @torch.compile
        def h(x, g):
            return g(x)

        def run():
            t = torch.ones(3)
            h(t, f(1))  # g is inlined; ID_MATCH on L['g'].__code__, EQUALS_MATCH on its cell x == 1
            h(t, f(2))  # the same code: the cell's guard fails once (2 compiles), then x is dynamic
    """,
    "loop_resumes_per_iteration": """
        import torch

        @torch.compile
        def counted(x):
            i = 0
            while i < 3:
                x = x * 2
                if x.sum() > 1e9:  # no jump back before the return: each iteration resumes
                    return x
                i += 1  # the resume frame gets L['i'] == 0, then 1 (recompile; dynamic), then 2
            return x

        @torch.compile
        def scaled(x, ws):
            for w in ws:  # L['ws'] and every item guarded at the first break
                x = x * w
                if x.sum() > 1e9:  # the rest rides in L['___stack0']: TUPLE_ITERATOR_LEN fails each time
                    return x
            return x

        @torch.compile
        def grid(x):
            for i in range(2):
                for j in range(2):  # two range iterators: L['___stack0'], L['___stack1']
                    x = x + j
                    if x.sum() > 1e9:
                        return x
            return x

        def run():
            counted(torch.ones(3))
            scaled(torch.ones(3), [1.0, 2.0, 3.0])
            grid(torch.ones(3))
    """,
    "loop_over_layers_resumes": """
        import torch
        import torch.nn as nn

        class Scaled(nn.Module):
            def __init__(self, k):
                super().__init__()
                self.k = k
                self.fc = nn.Linear(4, 4)

            def forward(self, x):
                return self.fc(x) * self.k

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([Scaled(k) for k in (1, 2, 3)])

            def forward(self, x):
                # enumerate over a ModuleList is a tuple iterator: the resume frame reads each pair through
                # it, L['___stack0'][0][1].k == 2, and L['___stack0'][1][0] == 2 for the next index
                for i, layer in enumerate(self.layers):
                    x = layer(x) + layer.k * i
                    if x.sum() > 1e9:
                        return x
                return x * 2

        def run():
            model = Net()
            model.compile()
            model(torch.ones(2, 4))
    """,
    "loop_iterators_dynamo_cannot_rebuild": """
        import torch
        import torch.nn as nn

        class Stack(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])

            def forward(self, x):
                for layer in self.layers:  # an nn.Module's iterator: Reconstruction failure, no graph
                    x = layer(x)
                    if x.sum() > 1e9:
                        return x
                return x

        @torch.compile
        def indexed(x, ws):
            for i, w in enumerate(ws):  # enumerate over a list: a generator Dynamo cannot rebuild
                x = x * w + i
                if x.sum() > 1e9:
                    return x
            return x

        @torch.compile
        def paired(x, ws, bs):
            for w, b in zip(ws, bs):  # rebuilt, but its resume frame cannot call next() on a zip
                x = x * w + b
                if x.sum() > 1e9:
                    return x
            return x

        def run():
            torch.compile(Stack())(torch.ones(2, 4))
            indexed(torch.ones(3), [1.0, 2.0])
            paired(torch.ones(3), [1.0, 2.0], [0.0, 1.0])
    """,
    "loop_resume_hits_recompile_limit": """
        import torch

        @torch.compile
        def f(x, ws):
            for w in ws:
                x = x * w
                if x.sum() > 1e9:  # 11 iterations left: 8 compiles of the resume function, then eager
                    return x
            return x

        def run():
            f(torch.ones(3), [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    """,
    "while_on_a_tensor_resumes_each_step": """
        import torch

        @torch.compile
        def halve(x):
            n = 0
            while x.norm() > 1.0:  # each step a resume function's: L['n'] == 0, then 1 (dynamic)
                x = x * 0.5
                n += 1
            return x, n

        @torch.compile
        def settle(x):
            steps = 0
            while True:
                x = x * 0.5
                steps += 1
                if x.norm() < 1.0:
                    return x, steps

        def run():
            halve(torch.full((4,), 3.0))
            settle(torch.full((4,), 3.0))
    """,
    "loop_resumes_inside_a_callee_frame": """
        import torch

        def pick(x, ws):
            for w in ws:
                x = x * w
                if x.sum() > 1e9:  # f breaks at its call; pick, a frame of its own, resumes here
                    return x
            return x

        @torch.compile
        def f(x):
            y = pick(x + 1, [1.0, 2.0])
            return y - 1

        def run():
            f(torch.ones(3))
    """,
    "loop_break_in_a_resume_frame": """
        import torch

        @torch.compile
        def warm(x):
            x = x + 1
            print("start")  # resumes
            for i in range(2):
                x = x * 2
                print(i)  # in the resume frame's loop: that frame is skipped, warm's first graph stays
            return x

        @torch.compile
        def then_loop(x, ws):
            x = x + 1
            print("start")
            for w in ws:  # the resume frame's own loop resumes: L['___stack0'] of the resume's resume
                x = x * w
                if x.sum() > 1e9:
                    return x
            return x

        def run():
            warm(torch.ones(3))
            then_loop(torch.ones(3), [1.0, 2.0])
    """,
    "sequence_length_changes_between_calls": """
        import torch
        import torch.nn as nn

        class Block(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.norm = nn.LayerNorm(d)
                self.fc = nn.Linear(d, d)

            def forward(self, hidden_states, attention_mask=None):
                h = self.fc(self.norm(hidden_states))
                if attention_mask is not None:
                    h = h * attention_mask[..., None]
                return hidden_states + h

        class TinyLM(nn.Module):
            def __init__(self, vocab=32, d=8, layers=2):
                super().__init__()
                self.embed = nn.Embedding(vocab, d)
                self.layers = nn.ModuleList([Block(d) for _ in range(layers)])
                self.head = nn.Linear(d, vocab)

            def forward(self, input_ids, attention_mask=None, **kwargs):
                hidden_states = self.embed(input_ids)
                for layer in self.layers:
                    hidden_states = layer(hidden_states, attention_mask)
                return self.head(hidden_states)

        def run():
            model = torch.compile(TinyLM().eval())
            with torch.no_grad():
                for length in (8, 12, 16):  # tensor 'input_ids' size mismatch at index 1, once: then dynamic
                    ids = torch.randint(0, 32, (1, length))
                    model(ids, attention_mask=torch.ones(1, length))
    """,
    "keywords_passed_at_some_calls_only": """
        import torch
        import torch.nn as nn

        class TestedVLM(nn.Module):
            def __init__(self, vocab=32, d=8):
                super().__init__()
                self.embed = nn.Embedding(vocab, d)
                self.vision = nn.Linear(4, d)
                self.head = nn.Linear(d, vocab)

            def forward(self, input_ids, attention_mask=None, **kwargs):
                hidden_states = self.embed(input_ids)
                pixel_values = kwargs.get("pixel_values")  # DICT_CONTAINS on L['kwargs']
                if pixel_values is not None:
                    hidden_states = hidden_states + self.vision(pixel_values)[:, None]
                return self.head(hidden_states)

        class Vision(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.proj = nn.Linear(4, d)

            def forward(self, hidden_states, pixel_values=None, **kwargs):
                if pixel_values is not None:
                    hidden_states = hidden_states + self.proj(pixel_values)[:, None]
                return hidden_states

        class PassingVLM(nn.Module):
            def __init__(self, vocab=32, d=8):
                super().__init__()
                self.embed = nn.Embedding(vocab, d)
                self.vision = Vision(d)
                self.head = nn.Linear(d, vocab)

            def forward(self, input_ids, attention_mask=None, **kwargs):
                hidden_states = self.vision(self.embed(input_ids), **kwargs)  # DICT_LENGTH on L['kwargs']
                return self.head(hidden_states)

        def run():
            ids = torch.randint(0, 32, (1, 8))
            with torch.no_grad():
                tested = torch.compile(TestedVLM().eval())
                tested(ids)
                tested(ids, pixel_values=torch.randn(1, 4))
                tested(ids)
                passing = torch.compile(PassingVLM().eval())
                passing(ids, pixel_values=torch.randn(1, 4))
                passing(ids)
    """,
    "list_argument_changes_length": """
        import torch

        def noisy(x):
            print("step")
            return x * 2

        @torch.compile
        def gather(x, extra):
            return [*extra, noisy(x)]  # no op before the break, yet compiled: len(L['extra']) is guarded

        def run():
            x = torch.ones(3)
            gather(x, [x])
            gather(x, [x, x])
    """,
    "loop_over_tensor_rows": """
        import torch

        @torch.compile
        def accumulate(x):
            out = x[0] * 0
            for row in x:  # the static first size: three rows unrolled, a tuple iterator at a resume
                out = out + row
                if out.sum() > 1e9:
                    return out
            return out

        @torch.compile
        def masked(x):
            out = x * 0
            for row in x:
                if row.sum() > 0:  # falls through to the loop's jump back: the frame is skipped
                    out = out + row
            return out

        def run():
            accumulate(torch.ones(3, 2))
            masked(torch.ones(3, 2))
    """,
    "moe_block_breaks_in_callee_frames": """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Experts(nn.Module):
            def __init__(self, n, d):
                super().__init__()
                self.num_experts = n
                self.w = nn.ModuleList([nn.Linear(d, d) for _ in range(n)])

            def forward(self, x, top_k_index, top_k_weights):
                out = torch.zeros_like(x)
                hit = torch.greater(F.one_hot(top_k_index, self.num_experts).sum(dim=(0, 1)), 0).nonzero()
                for expert_idx in range(self.num_experts):
                    token_idx, top_k_pos = torch.where(top_k_index == expert_idx)
                    h = self.w[expert_idx](x[token_idx]) * top_k_weights[token_idx, top_k_pos, None]
                    out.index_add_(0, token_idx, h)
                return out + hit.sum()


        class Gate(nn.Module):
            def __init__(self, d, n, k):
                super().__init__()
                self.top_k = k
                self.proj = nn.Linear(d, n)

            def forward(self, x):
                weights = self.proj(x).softmax(-1)
                return torch.topk(weights, self.top_k, dim=-1)


        class MoE(nn.Module):
            def __init__(self, d, n, k):
                super().__init__()
                self.gate = Gate(d, n, k)
                self.experts = Experts(n, d)

            def forward(self, x):
                top_w, top_i = self.gate(x)
                return self.experts(x, top_i, top_w)


        class Layer(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.norm = nn.LayerNorm(d)
                self.mlp = MoE(d, 4, 2)

            def forward(self, x):
                return x + self.mlp(self.norm(x))


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([Layer(8) for _ in range(2)])

            def forward(self, x):
                for layer in self.layers:
                    x = layer(x)
                return x


        def run():
            # Model.forward: the experts' break reaches its call of a layer inside its loop: skipped. Each
            # Layer.forward, MoE.forward (L['self'].gate.top_k, not ...layers[0].mlp.gate.top_k) and
            # Experts.forward is a frame of its own; the experts' loop breaks in its resume frame: skipped
            model = torch.compile(Model().eval())
            with torch.no_grad():
                model(torch.randn(5, 8))
    """,
    "data_file_config": """
        import json
        import os

        import torch

        # the script's data file, read where it runs (the project root): its values are the graph's constants
        with open(os.path.join("golden_data", "scale.json"), encoding="utf-8") as f:
            CFG = json.load(f)
        SCALE = CFG["scale"] if os.path.isfile("golden_data/scale.json") else 0
        MISSING = 1 if os.path.exists("golden_data/absent.json") else 2


        @torch.compile
        def f(x):
            return x * SCALE + CFG["shift"] + MISSING


        def run():
            f(torch.ones(3))
    """,
    "set_constants": """
        import torch

        KINDS = {"relu", "gelu"}
        seen = set()
        seen.add("a")
        seen.update(["b", "c"])
        seen.discard("c")
        FROZEN = frozenset(["a", "b"])
        UNION = (seen | {"z"}) - {"b"}


        @torch.compile
        def f(x, act):
            # a set from outside is a SetVariable guarded whole (EQUALS_MATCH), a frozenset a FrozensetVariable
            if act in KINDS:
                x = x + 1
            if "gelu" in {"gelu", "tanh"}:
                x = x * 2
            return x * len(seen) + len(UNION) + (seen == FROZEN)


        def run():
            f(torch.ones(2), "relu")
    """,
    "recursive_config_decode": """
        import torch


        def decode(obj):
            # run at import: recursion over nested data goes as deep as the data
            if isinstance(obj, dict):
                if set(obj.keys()) == {"__float__"}:
                    return float("inf")
                return {k: decode(v) for k, v in obj.items()}
            if isinstance(obj, list):
                return [decode(v) for v in obj]
            return obj


        CFG = decode({"n": 3, "sub": {"m": 2, "ks": [4, 5]}})


        @torch.compile
        def f(x):
            return x * CFG["n"] + CFG["sub"]["m"] + CFG["sub"]["ks"][1]


        def run():
            f(torch.ones(2))
    """,
    # diffusers' ConfigMixin: `@register_to_config` reads the __init__'s defaults with inspect.signature and
    # keeps the config in a FrozenDict (an OrderedDict subclass setting each item as an attribute), from which
    # __init__ sizes the model: the blocks the forward loops over are the config's
    "register_to_config_defaults": """
        import functools
        import inspect
        from collections import OrderedDict

        import torch
        from torch import nn


        class FrozenDict(OrderedDict):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                for key, value in self.items():
                    setattr(self, key, value)


        def register_to_config(init):
            @functools.wraps(init)
            def inner_init(self, *args, **kwargs):
                signature = inspect.signature(init)
                parameters = {name: p.default for i, (name, p) in enumerate(signature.parameters.items()) if i > 0}
                new_kwargs = {}
                for arg, name in zip(args, parameters.keys()):
                    new_kwargs[name] = arg
                new_kwargs.update({k: kwargs.get(k, default) for k, default in parameters.items() if k not in new_kwargs})
                self._internal_dict = FrozenDict(new_kwargs)
                init(self, *args, **kwargs)

            return inner_init


        class Block(nn.Module):
            def __init__(self, gain):
                super().__init__()
                self.gain = gain

            def forward(self, x):
                return x * self.gain


        class Model(nn.Module):
            @register_to_config
            def __init__(self, width: int = 8, layers: int = 3, gain: float = 0.5):
                super().__init__()
                config = self._internal_dict
                self.blocks = nn.ModuleList([Block(config.gain * (i + 1)) for i in range(config.layers)])
                self.width = config.width

            def forward(self, x):
                for block in self.blocks:
                    x = block(x)
                return x + self.width


        def run():
            torch.compile(Model(4, gain=0.25))(torch.ones(2, 4))
    """,
    # blocks whose mixer is of another class: Dynamo's guard tree checks the mixer's type before its
    # attribute, so the second block's call fails TYPE_MATCH on L['self'].mixer, not the scale's value
    "mixer_of_another_class": """
        import torch
        from torch import nn


        class Gated(nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = 2


        class Plain(nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = 3


        class Block(nn.Module):
            def __init__(self, mixer):
                super().__init__()
                self.mixer = mixer

            def forward(self, x):
                return x * self.mixer.scale


        def run():
            x = torch.ones(4)
            for block in [Block(Gated()), Block(Plain())]:
                torch.compile(block)(x)
    """,
}

# The data files the programs read, written beside them (relative path -> text).
DATA: dict[str, str] = {"golden_data/scale.json": '{"scale": 3, "shift": 2}\n'}
