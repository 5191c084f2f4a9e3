"""Build the trace_rules snapshot from the installed torch.

Run as `python -m vtlint.rules.trace_rules.build [OUT.json]` (vtlint runs it in a
subprocess: it imports torch, which the static hot path never does). It writes what
the static pass needs to mirror `torch/_dynamo/trace_rules.py` as data:

- `torch_functions`: qualified torch names -> VariableTracker class (manual rules,
  in-graph functions: `torch_name_rule_map`);
- `modules`: MOD_SKIPLIST, MOD_INLINELIST, LEGACY_MOD_INLINELIST, BUILTIN_SKIPLIST,
  THIRDPARTY_SKIPLIST, the files `check_file` force-skips or inlines when called,
  as dotted module names, plus the standard-library modules without a Python file;
- `callables`: what Dynamo wraps common library callables as (`time.time`,
  `math.sqrt`, `numpy.*`, ...), measured by asking trace_rules about the real objects
  in the order VariableBuilder does;
- `tensor_methods`: the names of torch.Tensor methods;
- `registry`: `graph_break_registry.json` (GB id -> Gb_type, explanation, hints).
- `lost`: the pieces this torch lacks or could not measure (piece -> why). Every
  section is measured on its own and asks only for what the release provides
  (`TraceRulesApi`), so torch 2.6 to 2.15 each lose only what they lack; the loader
  takes a lost section from the nearest shipped snapshot.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import logging
import re
import sys
import types
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from vtlint.rules.trace_rules.snapshot import NOT_IN_TORCH_NUMPY, SCHEMA

# Modules whose public callables are worth measuring: what users call in forward().
STDLIB_MODULES = (
    "abc", "array", "base64", "bisect", "builtins", "cmath", "collections", "contextlib", "copy",
    "csv", "dataclasses", "datetime", "enum", "functools", "gc", "glob", "hashlib", "heapq",
    "inspect", "io", "itertools", "json", "logging", "math", "numbers", "operator", "os",
    "os.path", "pathlib", "pdb", "pickle", "platform", "pprint", "queue", "random", "re",
    "shutil", "socket", "statistics", "string", "struct", "subprocess", "sys", "tempfile",
    "textwrap", "threading", "time", "traceback", "types", "typing", "uuid", "warnings",
    "weakref", "zlib",
)
THIRDPARTY_MODULES = (
    "numpy", "numpy.linalg", "numpy.random", "numpy.fft", "scipy", "scipy.special",
    "scipy.linalg", "scipy.signal", "scipy.stats", "tqdm", "einops", "pandas",
)
# Logger methods Dynamo special-cases (LoggingLoggerVariable).
LOGGER_METHODS = ("debug", "info", "warning", "warn", "error", "exception", "critical", "log")


# Calls whose fate only a trace shows: a library function Dynamo inlines until it
# reaches something it cannot trace (json.dumps, os.path.exists), or one with its own
# handler. Each is compiled alone (backend="eager") with constant, side-effect-free
# arguments; the snapshot records the registry type of the break, or that none happens.
PROBED_CALLS = {
    "json.dumps": "json.dumps({'a': 1})",
    "json.loads": "json.loads('{\"a\": 1}')",
    "os.path.exists": "os.path.exists('/nonexistent-vtlint-probe')",
    "os.path.isfile": "os.path.isfile('/nonexistent-vtlint-probe')",
    "os.path.isdir": "os.path.isdir('/nonexistent-vtlint-probe')",
    "os.path.join": "os.path.join('a', 'b')",
    "os.getcwd": "os.getcwd()",
    "os.listdir": "os.listdir('.')",
    "os.getenv": "os.getenv('HOME')",
    "os.environ.get": "os.environ.get('HOME')",
    "glob.glob": "glob.glob('/nonexistent-vtlint-probe/*')",
    "uuid.uuid4": "uuid.uuid4()",
    "io.StringIO": "io.StringIO('a')",
    "io.BytesIO": "io.BytesIO(b'a')",
    "datetime.datetime.now": "datetime.datetime.now()",
    "datetime.date.today": "datetime.date.today()",
    "time.time": "time.time()",
    "time.perf_counter": "time.perf_counter()",
    "time.monotonic": "time.monotonic()",
    "time.sleep": "time.sleep(0)",
    "time.strftime": "time.strftime('%Y')",
    "platform.system": "platform.system()",
    "sys.getsizeof": "sys.getsizeof(1)",
    "socket.gethostname": "socket.gethostname()",
    "pickle.dumps": "pickle.dumps(1)",
    "copy.deepcopy": "copy.deepcopy({'a': 1})",
    "copy.copy": "copy.copy([1])",
    "inspect.signature": "inspect.signature(json.dumps)",
    "traceback.format_stack": "traceback.format_stack()",
    "pprint.pformat": "pprint.pformat({'a': 1})",
    "logging.Logger.info": "_LOG.info('x')",  # a module-level logger, as programs keep them
    "logging.Logger.warning": "_LOG.warning('x')",
    "warnings.warn": "warnings.warn('x')",
    "random.random": "random.random()",
    "random.randint": "random.randint(0, 3)",
    "random.uniform": "random.uniform(0, 1)",
    "random.gauss": "random.gauss(0, 1)",
    "random.choice": "random.choice([1, 2])",
    "random.shuffle": "random.shuffle([1, 2])",
    "random.seed": "random.seed(0)",
    "math.sqrt": "math.sqrt(2.0)",
    "math.floor": "math.floor(2.5)",
    "operator.add": "operator.add(1, 2)",
    "functools.reduce": "functools.reduce(operator.add, [1, 2])",
    "collections.OrderedDict": "collections.OrderedDict(a=1)",
    "collections.defaultdict": "collections.defaultdict(list)",
    "collections.Counter": "collections.Counter([1, 1])",
    "re.compile": "re.compile('a')",
    "re.match": "re.match('a', 'a')",
    "struct.pack": "struct.pack('i', 1)",
    "hashlib.md5": "hashlib.md5(b'a')",
    "zlib.crc32": "zlib.crc32(b'a')",
    "base64.b64encode": "base64.b64encode(b'a')",
    "heapq.heappush": "heapq.heappush([], 1)",
    "bisect.bisect": "bisect.bisect([1, 2], 1)",
    "statistics.mean": "statistics.mean([1, 2])",
    "textwrap.dedent": "textwrap.dedent(' a')",
    "tempfile.gettempdir": "tempfile.gettempdir()",
    "threading.get_ident": "threading.get_ident()",
    "threading.current_thread": "threading.current_thread()",
    "numpy.random.seed": "numpy.random.seed(0)",
    "numpy.random.rand": "numpy.random.rand()",
    "numpy.array": "numpy.array([1.0, 2.0])",
    "scipy.special.erf": "scipy.special.erf(0.5)",
    "tqdm.tqdm": "tqdm.tqdm(total=1, disable=True)",
    "torch.manual_seed": "torch.manual_seed(0)",
    "torch.get_rng_state": "torch.get_rng_state()",
    "torch.Generator": "torch.Generator()",
    "torch.cuda.is_available": "torch.cuda.is_available()",
    "torch.distributed.is_initialized": "torch.distributed.is_initialized()",
    "torch.nn.Parameter": "torch.nn.Parameter(torch.ones(1))",
    "torch._dynamo.graph_break": "torch._dynamo.graph_break()",
}
_GB_LINK = re.compile(r"gb/gb(\d+)\.html")


def probe_calls(lost: dict[str, str]) -> dict[str, str | None]:
    """qualified name -> the GB id of the first break when calling it in compiled
    code, or None when it traces without a break. Names whose module is not
    installed are left out, and so are breaks this torch logs without a registry
    link (releases before the registry): their id is unknown, not "no break"."""
    import torch
    import torch._dynamo

    records: list[str] = []

    class Capture(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    logging.disable(logging.NOTSET)  # build() silenced logging; the breaks are logged at DEBUG
    log = logging.getLogger("torch._dynamo.symbolic_convert.__graph_breaks")
    out: dict[str, str | None] = {}
    unnamed: list[str] = []
    try:
        torch._logging.set_logs(graph_breaks=True)
        for handler in list(log.handlers):
            log.removeHandler(handler)
        log.addHandler(Capture())
        log.propagate = False
        for name, expr in PROBED_CALLS.items():
            namespace = _probe_namespace(expr)
            if namespace is None:
                continue
            exec(compile(f"def f(x):\n    r = {expr}\n    return x + 1\n", f"<vtlint-probe {name}>", "exec"), namespace)
            records.clear()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    torch.compile(namespace["f"], backend="eager")(torch.ones(2))
            except Exception:  # the eager call itself failed: nothing to learn
                continue
            links = [m.group(1) for m in map(_GB_LINK.search, records) if m]
            if records and not links:
                unnamed.append(name)
                continue
            out[name] = f"GB{links[0]}" if links else None
    finally:
        torch._logging.set_logs()
        logging.disable(logging.WARNING)
    if unnamed:
        lost["probed_calls.unnamed"] = f"{len(unnamed)} breaks logged without a registry id ({', '.join(unnamed)})"
    return out


def _probe_namespace(expr: str) -> dict[str, Any] | None:
    namespace: dict[str, Any] = {"_LOG": logging.getLogger("vtlint.probe")}
    for module in ("collections", "copy", "datetime", "functools", "glob", "hashlib", "heapq", "inspect", "io",
                   "json", "logging", "math", "operator", "os", "pickle", "platform", "pprint", "random", "re",
                   "socket", "statistics", "struct", "sys", "tempfile", "textwrap", "threading", "time",
                   "traceback", "uuid", "warnings", "zlib", "base64", "bisect", "torch", "numpy", "scipy", "tqdm"):
        if re.search(rf"\b{module}\.", expr):
            try:
                namespace[module] = importlib.import_module(module)
                if module == "scipy":
                    importlib.import_module("scipy.special")
                if module == "torch":
                    importlib.import_module("torch.distributed")
            except ImportError:
                return None
    return namespace


def _class_name(rule: Any) -> str | None:
    return rule.__name__ if isinstance(rule, type) else None


def torch_functions() -> dict[str, str]:
    """`torch_name_rule_map`: qualified name -> VariableTracker class name."""
    from torch._dynamo import trace_rules

    out: dict[str, str] = {}
    for table in trace_rules.torch_name_rule_map:
        for name, rule in table.items():
            if ".py#" in name:  # file-based rules for resume frames: not callable by name
                continue
            out[name.replace("#", ".")] = rule.__name__
    return dict(sorted(out.items()))


def _dotted(paths: Any) -> list[str]:
    return sorted(str(p) for p in paths)


def module_lists() -> dict[str, Any]:
    """The skip/inline lists of `check_file` as dotted module names (older torch
    releases lack some of them: those are empty)."""
    import torch
    from torch._dynamo import trace_rules

    def names(mods: Any) -> list[str]:
        return sorted(m if isinstance(m, str) else m.__name__ for m in mods)

    def listed(attr: str) -> Any:
        return getattr(trace_rules, attr, ())

    force_skip = []
    torch_dir = trace_rules._module_dir(torch) or ""
    for f in listed("FORCE_SKIP_FILES"):
        rel = f[len(torch_dir):] if f.startswith(torch_dir) else f
        force_skip.append("torch." + rel.removesuffix(".py").replace("/", "."))
    inline_dirs = set(listed("BUILTIN_INLINE_WHEN_CALLED"))
    inline_when_called = [m.__name__ for m in listed("BUILTIN_SKIPLIST") if trace_rules._module_dir(m) in inline_dirs]
    return {
        "mod_skiplist": _dotted(listed("MOD_SKIPLIST")),
        "mod_inlinelist": _dotted(listed("MOD_INLINELIST")),
        "legacy_mod_inlinelist": _dotted(listed("LEGACY_MOD_INLINELIST")),
        "builtin_skiplist": names(listed("BUILTIN_SKIPLIST")),
        "builtin_inline_when_called": sorted(inline_when_called),
        "thirdparty_skiplist": sorted(listed("THIRDPARTY_SKIPLIST")),
        "force_skip": sorted(force_skip),
        "unittest_skipped": not getattr(torch._dynamo.config, "enable_trace_unittest", False),
        "c_modules": c_modules(),
    }


def c_modules() -> list[str]:
    """Standard-library modules without a Python source file: every function in them
    is a C function, which `check_file(None)` skips."""
    found = set(sys.builtin_module_names)
    for name in sorted(getattr(sys, "stdlib_module_names", ())):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is not None and spec.origin and not spec.origin.endswith(".py") and spec.origin != "frozen":
            found.add(name)
    return sorted(found)


@dataclass(frozen=True)
class TraceRulesApi:
    """The parts of `torch._dynamo.trace_rules` that `classify` asks, as this torch
    provides them: None where a release lacks one, so only the answer that part gives
    is lost (torch 2.11 has no `get_skip_reason`: skip reasons then come from
    `lookup_inner`, every other answer is still measured)."""

    lookup_inner: Callable[..., Any]
    inner_reasons: bool  # lookup_inner(obj, reasons=set()) says why
    lookup_callable: Callable[[Any], Any] | None
    is_numpy: Callable[[Any], bool] | None
    check_file: Callable[..., Any] | None
    get_skip_reason: Callable[[Any], str] | None
    is_reorderable_logging: Callable[[Any], bool] | None
    in_torch_numpy: Callable[[Any], bool] | None  # NumpyVariable.call_function's get_np_to_tnp_map

    @classmethod
    def detect(cls, trace_rules: Any, debugging_variable: Any, np_to_tnp: Any = None) -> TraceRulesApi:
        inner = trace_rules.lookup_inner  # without it nothing is measured: the section is lost
        mapping = np_to_tnp() if np_to_tnp is not None else None
        return cls(
            lookup_inner=inner,
            inner_reasons=_accepts(inner, "reasons"),
            lookup_callable=getattr(trace_rules, "lookup_callable", None),
            is_numpy=getattr(trace_rules, "is_numpy", None),
            check_file=getattr(trace_rules, "check_file", None),
            get_skip_reason=getattr(trace_rules, "get_skip_reason", None),
            is_reorderable_logging=getattr(debugging_variable, "is_reorderable_logging_function", None),
            in_torch_numpy=mapping.__contains__ if mapping is not None else None,
        )

    def lacking(self) -> dict[str, str]:
        """piece -> what the snapshot loses without it."""
        effects = {
            "inner_reasons": "trace_rules.lookup_inner(reasons=): inlining reasons are left empty",
            "lookup_callable": "trace_rules.lookup_callable: callables are looked up by lookup_inner only",
            "is_numpy": "trace_rules.is_numpy: numpy functions are classified as plain functions",
            "check_file": "trace_rules.check_file: classes are not told apart by their file",
            "get_skip_reason": "trace_rules.get_skip_reason: skip reasons come from lookup_inner",
            "is_reorderable_logging": "DebuggingVariable.is_reorderable_logging_function: "
                                      "reorderable logging functions are not recognised",
            "in_torch_numpy": "variables.misc.get_np_to_tnp_map: numpy functions torch._numpy lacks are "
                              "taken as traced",
        }
        return {f"callables.{name}": why for name, why in effects.items() if getattr(self, name) in (None, False)}


def _in_torch_numpy(contains: Callable[[Any], bool], obj: Any) -> bool:
    try:
        return contains(obj)
    except TypeError:  # unhashable: not a key of the map, and not a function NumpyVariable looks up
        return True


def _accepts(fn: Callable[..., Any], parameter: str) -> bool:
    try:
        return parameter in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def detect_api() -> TraceRulesApi:
    from torch._dynamo import trace_rules

    misc = importlib.import_module("torch._dynamo.variables.misc")
    return TraceRulesApi.detect(trace_rules, getattr(misc, "DebuggingVariable", None),
                                getattr(misc, "get_np_to_tnp_map", None))


def classify(obj: Any, api: TraceRulesApi) -> tuple[str, str]:
    """(VariableTracker class, reason) for a callable met while tracing, checked in
    VariableBuilder's order for a global callable."""
    if api.is_reorderable_logging is not None and api.is_reorderable_logging(obj):
        return "DebuggingVariable", "reorderable logging function"
    if api.is_numpy is not None and api.is_numpy(obj):
        if api.in_torch_numpy is not None and inspect.isroutine(obj) and not _in_torch_numpy(api.in_torch_numpy, obj):
            return "NumpyVariable", NOT_IN_TORCH_NUMPY
        return "NumpyVariable", "numpy function traced as torch ops (trace_numpy)"
    rule = api.lookup_callable(obj) if api.lookup_callable is not None else None
    if rule is not None:
        return rule.__name__, "lookup_callable"
    if inspect.isclass(obj):
        if api.check_file is None:
            return "UserDefinedClassVariable", "class"
        try:
            where = api.check_file(inspect.getfile(obj), is_inlined_call=True)
        except TypeError:  # a C type: its methods cannot be traced into
            return "UserDefinedClassVariable", "C type"
        return "UserDefinedClassVariable", ("class in a skipped file: " if where.skipped else "class: ") + (where.reason or "")
    if not isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
        # an instance with __call__ (a scipy ufunc, a functools.partial): UserDefinedObjectVariable,
        # whose call Dynamo can only trace when __call__ is Python code
        call = getattr(type(obj), "__call__", None)
        if not inspect.isfunction(call) and "function" not in type(obj).__name__ and type(obj).__module__ not in (
            "functools", "builtins"
        ):
            return "UserDefinedObjectVariable", f"callable object of C type {type(obj).__name__}"
    reasons: set[str] = set()
    rule = api.lookup_inner(obj, reasons=reasons) if api.inner_reasons else api.lookup_inner(obj)
    name = _class_name(rule) or "SkipFunctionVariable"
    if name == "SkipFunctionVariable" and api.get_skip_reason is not None:
        return name, api.get_skip_reason(obj)
    return name, min(reasons) if reasons else ""


_PATH = re.compile(r"/[^\s()]*?/(?:site-packages|dist-packages|lib/python\d+\.\d+)/")


def _portable(reason: str) -> str:
    """Reasons name files; keep them relative to their library root, so the snapshot
    says `random.py`, not where this machine installed Python."""
    return _PATH.sub("", reason)


def _public_callables(module: types.ModuleType) -> dict[str, Any]:
    found = {}
    for name, value in vars(module).items():
        if name.startswith("_") or not callable(value) or isinstance(value, types.ModuleType):
            continue
        found[name] = value
    return found


def measure_callables(modules: tuple[str, ...], api: TraceRulesApi, lost: dict[str, str]) -> dict[str, dict[str, Any]]:
    """module -> {"default": [vt, reason], "names": {name: [vt, reason]}} with the most
    common answer as the default, to keep the snapshot small. A callable this torch
    cannot classify is left out (and named in `lost`), not the module."""
    out: dict[str, dict[str, Any]] = {}
    for modname in modules:
        try:
            module = importlib.import_module(modname)
        except Exception:  # not installed, or broken: nothing to measure
            continue
        answers = {}
        failed: dict[str, str] = {}
        for name, value in sorted(_public_callables(module).items()):
            try:
                vt, why = classify(value, api)
            except Exception as exc:  # this release's trace_rules trips on it: lose this one answer
                failed[name] = _why(exc)
                continue
            answers[name] = [vt, _portable(why)]
        if failed:
            lost[f"callables.{modname}"] = f"{len(failed)} unmeasured ({', '.join(sorted(failed))}): " + next(
                iter(failed.values()))
        if modname == "logging":
            for method in LOGGER_METHODS:
                answers[f"Logger.{method}"] = ["LoggingLoggerVariable", "logging.Logger method"]
        out[modname] = _compress(answers)
    return out


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".strip()


def _compress(answers: dict[str, list[str]]) -> dict[str, Any]:
    counts: dict[tuple[str, str], int] = {}
    for vt, reason in answers.values():
        counts[(vt, reason)] = counts.get((vt, reason), 0) + 1
    default = max(counts, key=lambda k: counts[k]) if counts else ("UserFunctionVariable", "inlined by default")
    names = {n: a for n, a in answers.items() if tuple(a) != default}
    # every measured name, space-separated (small): a name the build never saw is a guess
    return {"default": list(default), "names": names, "known": " ".join(sorted(answers))}


def tensor_methods() -> list[str]:
    import torch

    return sorted(n for n in dir(torch.Tensor) if not n.startswith("__") or n in ("__contains__",))


def registry() -> dict[str, Any]:
    """The graph-break registry: for each id its latest concrete entry (torch lists an id's
    entries newest first), and every Gb_type it was known by (torch maps any of them to the id)."""
    import torch._dynamo

    path = Path(torch._dynamo.__file__).parent / "graph_break_registry.json"
    if not path.is_file():  # torch before the registry: breaks are known by Gb_type only
        return {}
    raw = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, Any] = {}
    for gb_id, versions in sorted(raw.items()):
        concrete = [v for v in versions if not v["Gb_type"].startswith("_")] or versions
        latest = concrete[0]
        written = [v["Explanation"] for v in concrete if not v["Explanation"].startswith("_")]
        explanation = next((text for text in written if _prose(text)), written[0] if written else "")
        hints = next((v["Hints"] for v in concrete if v["Hints"]), [])
        out[gb_id] = {
            "gb_type": latest["Gb_type"],
            "explanation": explanation,
            "hints": hints,
            "context": latest.get("Context", ""),
            "aliases": sorted({v["Gb_type"] for v in versions} - {latest["Gb_type"]}),
        }
    return out


def _prose(text: str) -> bool:
    """A registry explanation torch recorded as text, not as the code that builds it
    (`"Detected ... " + trace_info`)."""
    return not text.startswith(('"', "'", 'f"', "f'")) and '" +' not in text and "+ " not in text


def _callables(lost: dict[str, str]) -> dict[str, dict[str, Any]]:
    api = detect_api()
    lost.update(api.lacking())
    return measure_callables(STDLIB_MODULES + THIRDPARTY_MODULES, api, lost)


# Each section of the snapshot, measured on its own: (key, measure, what it is when lost).
MEASURES: tuple[tuple[str, Callable[[dict[str, str]], Any], Callable[[], Any]], ...] = (
    ("torch_functions", lambda lost: torch_functions(), dict),
    ("modules", lambda lost: module_lists(), dict),
    ("callables", _callables, dict),
    ("tensor_methods", lambda lost: tensor_methods(), list),
    ("probed_calls", probe_calls, dict),
    ("registry", lambda lost: registry(), dict),
)


def build() -> dict[str, Any]:
    logging.disable(logging.WARNING)  # importing numpy/scipy under torch can be chatty
    import torch  # noqa: F401  (the snapshot describes this torch)

    data: dict[str, Any] = {
        "schema": SCHEMA,
        "torch_version": metadata.version("torch"),
        "python": ".".join(map(str, sys.version_info[:2])),
    }
    lost: dict[str, str] = {}
    for key, measure, empty in MEASURES:
        try:
            data[key] = measure(lost)
        except Exception as exc:  # this torch lacks what the section reads: lose it, keep the rest
            lost[key] = _why(exc)
            data[key] = empty()
    data["lost"] = lost
    return data


def main(argv: list[str]) -> int:
    data = build()
    text = json.dumps(data, indent=None, separators=(",", ":"), sort_keys=True)
    if len(argv) > 1:
        from vtlint.report.output import write_atomic

        write_atomic(Path(argv[1]), text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
