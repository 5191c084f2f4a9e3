"""Each decision of vtlint.analyzer.breaks checked against what the installed torch
really does: a tiny compiled `f` makes the call on the line marked `# <-`; the
decision must break there with the same registry id, or not break at all."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.breaks.torch_probe import run_programs
from vtlint.analyzer import breaks
from vtlint.config import DynamoSettings

S = DynamoSettings()
PRELUDE = (
    "import torch, time, random, os, warnings, math, copy, inspect, logging, threading, contextlib, json, zlib\n"
    "import numpy as np\n"
    "log = logging.getLogger('probe')\n"
)

Case = tuple[str, Callable[[], breaks.Decision]]
CASES: dict[str, Case] = {
    # library functions
    "time_time": ("def f(x):\n    t = time.time()  # <-\n    return x + t", lambda: breaks.decide_function("time.time", S)),
    "perf_counter": ("def f(x):\n    t = time.perf_counter()  # <-\n    return x + t",
                     lambda: breaks.decide_function("time.perf_counter", S)),
    "random_random": ("def f(x):\n    return x + random.random()  # <-", lambda: breaks.decide_function("random.random", S)),
    "random_randint": ("def f(x):\n    return x + random.randint(0, 3)  # <-",
                       lambda: breaks.decide_function("random.randint", S)),
    "random_gauss": ("def f(x):\n    return x + random.gauss(0, 1)  # <-", lambda: breaks.decide_function("random.gauss", S)),
    "random_uniform": ("def f(x):\n    return x + random.uniform(0, 1)  # <-",
                       lambda: breaks.decide_function("random.uniform", S)),
    "os_getpid": ("def f(x):\n    return x + os.getpid()  # <-", lambda: breaks.decide_function("os.getpid", S)),
    "warnings_warn": ("def f(x):\n    warnings.warn('w')  # <-\n    return x + 1",
                      lambda: breaks.decide_function("warnings.warn", S)),
    "logger_info": ("def f(x):\n    log.info('w')  # <-\n    return x + 1",
                    lambda: breaks.decide_function("logging.Logger.info", S)),
    "logger_warning": ("def f(x):\n    log.warning('w')  # <-\n    return x + 1",
                       lambda: breaks.decide_function("logging.Logger.warning", S)),
    "graph_break": ("def f(x):\n    x = x + 1\n    torch._dynamo.graph_break()  # <-\n    return x + 1",
                    lambda: breaks.decide_function("torch._dynamo.graph_break", S)),
    "zlib_crc32": ("def f(x):\n    return x + zlib.crc32(b'a')  # <-", lambda: breaks.decide_function("zlib.crc32", S)),
    "math_sqrt": ("def f(x):\n    return x * math.sqrt(2)  # <-", lambda: breaks.decide_function("math.sqrt", S)),
    "math_sqrt_tensor": ("def f(x):\n    return x * math.sqrt(x.sum())  # <-",
                         lambda: breaks.decide_function("math.sqrt", S, tensor_args=True)),
    "deepcopy": ("def f(x):\n    c = copy.deepcopy({'a': 1})  # <-\n    return x + c['a']",
                 lambda: breaks.decide_function("copy.deepcopy", S)),
    "signature": ("def g(a, b):\n    pass\ndef f(x):\n    s = inspect.signature(g)  # <-\n    return x + len(s.parameters)",
                  lambda: breaks.decide_function("inspect.signature", S)),
    "numpy_sin": ("def f(x):\n    return torch.from_numpy(np.sin(x.numpy()))  # <-",
                  lambda: breaks.decide_function("numpy.sin", S)),
    "torch_sin": ("def f(x):\n    return torch.sin(x)  # <-", lambda: breaks.decide_function("torch.sin", S)),
    "relu": ("def f(x):\n    return torch.nn.functional.relu(x)  # <-",
             lambda: breaks.decide_function("torch.nn.functional.relu", S)),
    "path_join": ("def f(x):\n    p = os.path.join('a', 'b')  # <-\n    return x + len(p)",
                  lambda: breaks.decide_function("os.path.join", S)),
    "json_dumps": ("def f(x):\n    s = json.dumps({'a': 1})  # <-\n    return x + len(s)",
                   lambda: breaks.decide_function("json.dumps", S)),
    "nn_parameter": ("def f(x):\n    p = torch.nn.Parameter(torch.ones(3))  # <-\n    return x + p",
                     lambda: breaks.decide_function("torch.nn.Parameter", S)),
    "autograd_grad": ("def f(x):\n    y = x * 2\n    g = torch.autograd.grad(y.sum(), x)  # <-\n    return x",
                      lambda: breaks.decide_function("torch.autograd.grad", S)),
    "from_numpy_off": ("DYNAMO = {'trace_numpy': False}\nA = np.ones(3)\ndef f(x):\n    return x + torch.from_numpy(A)  # <-",
                       lambda: breaks.decide_function("torch.from_numpy", DynamoSettings(trace_numpy=False))),
    "lr_scheduler_step": ("opt = torch.optim.SGD([torch.nn.Parameter(torch.ones(3))], lr=0.1)\n"
                          "sched = torch.optim.lr_scheduler.StepLR(opt, 1)\n"
                          "def f(x):\n    sched.step()  # <-\n    return x + 1",
                          lambda: breaks.decide_function("torch.optim.lr_scheduler.StepLR.step", S)),
    "raise_uncaught": ("def f(x):\n    raise ValueError('bad')  # <-", lambda: breaks.decide_raise(False, S)),
    "raise_caught": ("def f(x):\n    try:\n        raise ValueError('bad')  # <-\n    except ValueError:\n"
                     "        return x + 1", lambda: breaks.decide_raise(True, S)),
    "scipy_ufunc": ("import scipy.special\ndef f(x):\n    return x * scipy.special.erf(0.5)  # <-",
                    lambda: breaks.decide_function("scipy.special.erf", S)),
    "pdb_set_trace": ("import pdb\ndef f(x):\n    pdb.set_trace()  # <-\n    return x + 1",
                      lambda: breaks.decide_function("pdb.set_trace", S)),
    # builtins
    "hash_tensor": ("def f(x):\n    return x + hash(x) % 3  # <-", lambda: breaks.decide_builtin("hash", S, tensor_args=True)),
    "print": ("def f(x):\n    print('a')  # <-\n    return x + 1", lambda: breaks.decide_builtin("print", S)),
    "breakpoint": ("def f(x):\n    breakpoint()  # <-\n    return x + 1", lambda: breaks.decide_builtin("breakpoint", S)),
    "str_tensor": ("def f(x):\n    s = str(x)  # <-\n    return x + 1", lambda: breaks.decide_builtin("str", S, tensor_args=True)),
    "repr_tensor": ("def f(x):\n    s = repr(x)  # <-\n    return x + 1",
                    lambda: breaks.decide_builtin("repr", S, tensor_args=True)),
    "bool_tensor": ("def f(x):\n    b = bool(x.sum())  # <-\n    return x + b",
                    lambda: breaks.decide_builtin("bool", S, tensor_args=True)),
    "len": ("def f(x):\n    return x + len(x)  # <-", lambda: breaks.decide_builtin("len", S)),
    "isinstance": ("def f(x):\n    return x + 1 if isinstance(x, torch.Tensor) else x  # <-",
                   lambda: breaks.decide_builtin("isinstance", S)),
    "sum_generator": ("def f(x):\n    return x + sum(i for i in range(3))  # <-", lambda: breaks.decide_builtin("sum", S)),
    # Tensor methods
    "item": ("def f(x):\n    return x * x.sum().item()  # <-", lambda: breaks.decide_tensor_method("item", S)),
    "item_captured": ("DYNAMO = {'capture_scalar_outputs': True}\ndef f(x):\n    return x * x.sum().item()  # <-",
                      lambda: breaks.decide_tensor_method("item", DynamoSettings(capture_scalar_outputs=True))),
    "tolist": ("def f(x):\n    return x + len(x.tolist())  # <-",
               lambda: breaks.decide_tensor_method("tolist", S)),
    "nonzero": ("def f(x):\n    return x.nonzero() + 1  # <-", lambda: breaks.decide_tensor_method("nonzero", S)),
    "tensor_numpy_off": ("DYNAMO = {'trace_numpy': False}\ndef f(x):\n    a = x.numpy()  # <-\n    return x + 1",
                         lambda: breaks.decide_tensor_method("numpy", DynamoSettings(trace_numpy=False))),
    "backward": ("def f(x):\n    y = x * 2\n    y.sum().backward()  # <-\n    return x + 1",
                 lambda: breaks.decide_tensor_method("backward", S)),
    "is_inference": ("def f(x):\n    return x + x.is_inference()  # <-", lambda: breaks.decide_tensor_method("is_inference", S)),
    "random_": ("def f(x):\n    return x.clone().random_()  # <-", lambda: breaks.decide_tensor_method("random_", S)),
    "resize_": ("def f(x):\n    y = x.clone()\n    y.resize_(6)  # <-\n    return y + 1",
                lambda: breaks.decide_tensor_method("resize_", S)),
    "share_memory_": ("def f(x):\n    x.share_memory_()  # <-\n    return x + 1",
                      lambda: breaks.decide_tensor_method("share_memory_", S)),
    "requires_grad_": ("def f(x):\n    y = x * 2\n    y.requires_grad_()  # <-\n    return y + 1",
                       lambda: breaks.decide_tensor_method("requires_grad_", S)),
    "boolean_mask": ("def f(x):\n    return x[x > 0].sum()  # <-", lambda: breaks.decide_boolean_mask(S)),
    "tensor_sum": ("def f(x):\n    return x.sum()  # <-", lambda: breaks.decide_tensor_method("sum", S)),
    # branches on a tensor
    "if": ("def f(x):\n    if x.sum() > 0:  # <-\n        return x + 1\n    return x",
           lambda: breaks.decide_branch("if", S)),
    "while": ("def f(x):\n    while x.sum() < 10:  # <-\n        x = x + 1\n    return x",
              lambda: breaks.decide_branch("while", S)),
    "ternary": ("def f(x):\n    y = x if x.sum() > 0 else -x  # <-\n    return y", lambda: breaks.decide_branch("ternary", S)),
    "and": ("def f(x):\n    y = (x.sum() > 0) and (x.max() < 5)  # <-\n    return x + 1",
            lambda: breaks.decide_branch("and", S)),
    "or": ("def f(x):\n    y = (x.sum() > 0) or (x.max() < 5)  # <-\n    return x + 1",
           lambda: breaks.decide_branch("or", S)),
    "assert": ("def f(x):\n    assert x.sum() > 0  # <-\n    return x + 1", lambda: breaks.decide_branch("assert", S)),
    # with-statements
    "no_grad": ("def f(x):\n    with torch.no_grad():  # <-\n        y = x + 1\n    return y",
                lambda: breaks.decide_context_manager("torch.no_grad", S)),
    "autocast": ("def f(x):\n    with torch.autocast('cpu'):  # <-\n        y = x + 1\n    return y",
                 lambda: breaks.decide_context_manager("torch.autocast", S)),
    "nullcontext": ("def f(x):\n    with contextlib.nullcontext():  # <-\n        y = x + 1\n    return y",
                    lambda: breaks.decide_context_manager("contextlib.nullcontext", S)),
    "catch_warnings": ("def f(x):\n    with warnings.catch_warnings():  # <-\n        y = x + 1\n    return y",
                       lambda: breaks.decide_context_manager("warnings.catch_warnings", S)),
    "lock": ("L = threading.Lock()\ndef f(x):\n    with L:  # <-\n        y = x + 1\n    return y",
             lambda: breaks.decide_context_manager("threading.Lock", S)),
    "open": ("def f(x):\n    with open(__file__) as fh:  # <-\n        pass\n    return x + 1",
             lambda: breaks.decide_context_manager("open", S)),
    # disabled functions
    "disabled": ("@torch.compiler.disable\ndef h(x):\n    return x + 1\ndef f(x):\n    return h(x) * 2  # <-",
                 lambda: breaks.decide_disabled_call("h")),
}


def _marked_line(program: str) -> int:
    lines = (PRELUDE + program).splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.endswith("# <-"))


@pytest.fixture(scope="module")
def observed() -> dict[str, dict]:
    return run_programs({name: PRELUDE + body + "\n" for name, (body, _) in CASES.items()})


@pytest.mark.torch
@pytest.mark.parametrize("name", list(CASES))
def test_decision_matches_torch(name: str, observed: dict[str, dict]) -> None:
    body, decide = CASES[name]
    decision = decide()
    seen = observed[name]
    at_line = [b for b in seen["breaks"] if b["line"] == _marked_line(body)]
    if decision.action == "graph-break":
        assert at_line, f"{name}: predicted {decision.gb_id} but torch saw {seen}"
        # torch may report a second break at the line (the frame it then skips): the first one is ours
        assert decision.gb_id in {b["gb_id"] for b in at_line}, f"{name}: torch saw {at_line}"
    else:
        assert not seen["breaks"], f"{name}: predicted {decision.action} but torch saw {seen['breaks']}"
