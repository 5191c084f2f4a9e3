"""`[tool.vtlint]` in pyproject.toml: found by walking up from the paths,
validated key by key, overridable from the command line."""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import pathspec

from vtlint.bounded import MiB, read_toml
from vtlint.findings import Level

DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".hg", ".mypy_cache", ".nox", ".pants.d",
    ".pytype", ".ruff_cache", ".svn", ".tox", ".venv", "__pypackages__", "_build",
    "buck-out", "build", "dist", "node_modules", "site-packages", "venv",
)


MAX_CONFIG_BYTES = 4 * MiB  # a pyproject.toml is a few KB; a lock file checked in by mistake is not one


class ConfigError(Exception):
    """A user mistake in configuration: reported with the file and key, exit 2."""


@dataclass(frozen=True)
class DynamoSettings:
    """The torch.compile / torch._dynamo.config settings the static pass assumes,
    unless the code itself says otherwise."""

    capture_scalar_outputs: bool = False
    capture_dynamic_output_shape_ops: bool = False
    trace_numpy: bool = True
    use_numpy_random_stream: bool = False
    dynamic: bool | None = None  # torch.compile(dynamic=...)
    fullgraph: bool = False
    error_on_graph_break: bool = False
    automatic_dynamic_shapes: bool = True
    allow_unspec_int_on_nn_module: bool = False
    specialize_float: bool = False
    allow_rnn: bool = False
    enable_trace_contextlib: bool = True
    enable_trace_load_build_class: bool = False
    reorderable_logging_functions: tuple[str, ...] = ()  # dotted names: `print`, `logging.info`
    capture_profiler_record_function: bool = False
    recompile_limit: int = 8

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class RuntimeSettings:
    command: str | None = None
    timeout: float = 600.0


@dataclass(frozen=True)
class Config:
    root: Path  # the project root: the pyproject.toml's folder, or the cwd
    config_file: Path | None = None
    include: tuple[str, ...] = ("*.py", "*.pyi")
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    select: tuple[str, ...] = ("VTL",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    entry_points: tuple[str, ...] = ()
    assume_compiled: tuple[str, ...] = ()
    fail_level: Level = Level.WARNING
    file_budget: float = 30.0  # seconds for one file's parse and entry scan
    dynamo: DynamoSettings = field(default_factory=DynamoSettings)
    runtime: RuntimeSettings = field(default_factory=RuntimeSettings)

    def with_(self, **changes: Any) -> Config:
        return replace(self, **changes)


def _str_list(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings, got {_shown(value)}")
    return tuple(value)


def _shown(value: Any) -> str:
    """A bad value as the error shows it: cut short (it may be a 100,000-element array)."""
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:77]}..."


def _globs(value: Any, where: str) -> tuple[str, ...]:
    """A list of gitignore-style globs that pathspec compiles (`[z-a]` is a bad range)."""
    patterns = _str_list(value, where)
    for pattern in patterns:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)  # re's "possible nested set" in `[[:alpha:]]`
                pathspec.GitIgnoreSpec.from_lines([pattern])
        except (ValueError, re.error) as exc:  # GitIgnorePatternError is a ValueError
            raise ConfigError(f"{where}: invalid glob {pattern!r}: {exc}") from None
    return patterns


def _check_type(value: Any, kind: type | tuple[type, ...], where: str, what: str) -> Any:
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise ConfigError(f"{where}: expected {what}, got {_shown(value)}")
    if not isinstance(value, kind):
        raise ConfigError(f"{where}: expected {what}, got {_shown(value)}")
    return value


def _parse_dynamo(table: Any, where: str) -> DynamoSettings:
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table")
    known = {f.name: f for f in fields(DynamoSettings)}
    values: dict[str, Any] = {}
    for key, value in table.items():
        name = key.replace("-", "_")
        if name not in known:
            raise ConfigError(f"{where}.{key}: unknown Dynamo setting (known: {', '.join(sorted(known))})")
        default = getattr(DynamoSettings(), name)
        if name == "dynamic":
            if not isinstance(value, (bool, str)) or value not in (True, False, "auto"):
                raise ConfigError(f"{where}.{key}: expected true, false or \"auto\", got {_shown(value)}")
            values[name] = None if value == "auto" else value
        elif isinstance(default, bool):
            values[name] = _check_type(value, bool, f"{where}.{key}", "true or false")
        elif isinstance(default, tuple):
            names = _check_type(value, list, f"{where}.{key}", "a list of function names")
            if not all(isinstance(n, str) for n in names):
                raise ConfigError(f"{where}.{key}: expected a list of function names, got {_shown(value)}")
            values[name] = tuple(names)
        else:
            values[name] = _check_type(value, int, f"{where}.{key}", "an integer")
            if values[name] < 1:
                raise ConfigError(f"{where}.{key}: expected an integer of at least 1, got {_shown(value)}")
    return DynamoSettings(**values)


MAX_SECONDS = 7 * 24 * 3600.0  # timers overflow far above this; nan or inf would mean no limit at all


def seconds(value: Any, where: str) -> float:
    """A finite, positive number of seconds (at most a week); ConfigError naming `where` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_SECONDS:
        raise ConfigError(f"{where}: expected a positive number of seconds up to {MAX_SECONDS:.0f}, "
                          f"got {_shown(value)}")
    return float(value)


def _parse_runtime(table: Any, where: str) -> RuntimeSettings:
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table")
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key == "command":
            values["command"] = _check_type(value, str, f"{where}.{key}", "a string")
        elif key == "timeout":
            values["timeout"] = seconds(value, f"{where}.{key}")
        else:
            raise ConfigError(f"{where}.{key}: unknown key (known: command, timeout)")
    return RuntimeSettings(**values)


_GLOB_KEYS = {"include": "include", "exclude": "exclude", "extend-exclude": "extend_exclude"}
_LIST_KEYS = {
    "select": "select",
    "extend-select": "extend_select",
    "ignore": "ignore",
    "entry-points": "entry_points",
    "assume-compiled": "assume_compiled",
}


def parse_table(table: dict[str, Any], root: Path, config_file: Path | None) -> Config:
    """Validate a `[tool.vtlint]` table into a Config; every error names its key."""
    where = f"{config_file or 'configuration'}: [tool.vtlint]"
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key in _GLOB_KEYS:
            values[_GLOB_KEYS[key]] = _globs(value, f"{where}.{key}")
        elif key in _LIST_KEYS:
            values[_LIST_KEYS[key]] = _str_list(value, f"{where}.{key}")
        elif key == "respect-gitignore":
            values["respect_gitignore"] = _check_type(value, bool, f"{where}.{key}", "true or false")
        elif key == "fail-level":
            if not isinstance(value, str) or value not in {level.value for level in Level}:
                raise ConfigError(f"{where}.{key}: expected \"error\", \"warning\" or \"note\", got {_shown(value)}")
            values["fail_level"] = Level(value)
        elif key == "file-budget":
            values["file_budget"] = seconds(value, f"{where}.{key}")
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(f"{where}.{key}: expected a table of glob = [codes]")
            values["per_file_ignores"] = {
                glob: _str_list(codes, f"{where}.{key}.{glob!r}") for glob, codes in value.items()
            }
        elif key == "dynamo":
            values["dynamo"] = _parse_dynamo(value, f"{where}.dynamo")
        elif key == "runtime":
            values["runtime"] = _parse_runtime(value, f"{where}.runtime")
        else:
            known = sorted([*_GLOB_KEYS, *_LIST_KEYS, "respect-gitignore", "fail-level", "file-budget",
                            "per-file-ignores", "dynamo", "runtime"])
            raise ConfigError(f"{where}: unknown key {key!r} (known: {', '.join(known)})")
    return Config(root=root, config_file=config_file, **values)


def find_config_file(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.vtlint] table, walking up from `start`."""
    start = start if start.is_dir() else start.parent
    for folder in [start, *start.parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and "vtlint" in tool_table(read_pyproject(candidate), candidate):
            return candidate
    return None


def read_pyproject(path: Path) -> dict[str, Any]:
    """A pyproject.toml, read bounded (a regular file, its size, its nesting): ConfigError naming it."""
    try:
        return read_toml(path, MAX_CONFIG_BYTES)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    except ValueError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def tool_table(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """`[tool]`, which every tool shares: `tool = 5` is an error, not a crash."""
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: [tool] must be a table, got {_shown(tool)}")
    return tool


def default_root(paths: list[Path]) -> Path:
    """Without a config file: the current folder when it holds every path (as Ruff
    shows paths), else the deepest folder that holds them all."""
    cwd = Path.cwd().resolve()
    folders = [_resolved(p) if p.is_dir() else _resolved(p).parent for p in paths] or [cwd]
    if all(f == cwd or cwd in f.parents for f in folders):
        return cwd
    common = Path(os.path.commonpath([str(f) for f in folders]))
    return common


def _resolved(path: Path) -> Path:
    """A path given on the command line may be a symlink loop: resolve() raises then."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):
        return Path(os.path.abspath(path))


def load_config(paths: list[Path], config_file: Path | None = None) -> Config:
    """The configuration for a run over `paths`: an explicit file, else the nearest
    pyproject.toml with [tool.vtlint] above the first path, else the defaults."""
    if config_file is None:
        start = _resolved(paths[0] if paths else Path.cwd())
        config_file = find_config_file(start)
    if config_file is None:
        return Config(root=default_root(paths))
    config_file = config_file.resolve()
    table = tool_table(read_pyproject(config_file), config_file).get("vtlint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{config_file}: [tool.vtlint] must be a table, got {_shown(table)}")
    return parse_table(table, config_file.parent, config_file)
