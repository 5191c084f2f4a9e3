"""The editor's side of the configuration: VS Code settings (`vtlint.*`) as the
client sends them, layered over `[tool.vtlint]`; and locating a broken
pyproject.toml so that its error is shown on the file instead of killing the server.
A setting of the wrong type (`"severity": [1]`) keeps its default, and says so."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from vtlint.bounded import read_text, toml_loads
from vtlint.config import MAX_CONFIG_BYTES, Config, ConfigError, load_config, parse_table, tool_table

DEFAULT_MAX_FILE_CHARS = 1_000_000  # ~25,000 lines: beyond it a file is skipped, not analyzed


@dataclass(frozen=True)
class EditorSettings:
    enable: bool = True
    select: tuple[str, ...] = ()  # replaces [tool.vtlint] select when not empty
    ignore: tuple[str, ...] = ()  # added to [tool.vtlint] ignore
    severity: dict[str, str] = field(default_factory=dict)  # code prefix -> error|warning|information|hint
    runtime_command: str | None = None  # overrides [tool.vtlint.runtime] command
    runtime_on_save: bool = False
    trusted: bool = False  # the workspace is trusted: runtime confirmation may run a harness
    max_file_chars: int = DEFAULT_MAX_FILE_CHARS
    problems: tuple[str, ...] = field(default=(), compare=False)  # settings ignored for their type

    @classmethod
    def from_client(cls, raw: Any) -> EditorSettings:
        """Accept `{"vtlint": {...}}`, `{"settings": {...}}` or the flat object."""
        if not isinstance(raw, dict):
            return cls()
        raw = raw.get("settings", raw)
        raw = raw.get("vtlint", raw) if isinstance(raw, dict) else {}
        if not isinstance(raw, dict):
            return cls(problems=("the `vtlint` settings are not an object",))
        read = _Reader(raw)
        runtime = _Reader(read.get("runtime", dict, {}), "runtime.")
        made = cls(
            enable=read.get("enable", bool, True),
            select=_codes(read.get("select", (str, list), [])),
            ignore=_codes(read.get("ignore", (str, list), [])),
            severity=read.severities(),
            runtime_command=runtime.get("command", str, "") or None,
            runtime_on_save=runtime.get("onSave", bool, False),
            trusted=read.get("trusted", bool, False),
            max_file_chars=read.get("maxFileChars", int, DEFAULT_MAX_FILE_CHARS),
        )
        return replace(made, problems=(*read.problems, *runtime.problems))

    def apply(self, config: Config) -> Config:
        changes: dict[str, Any] = {}
        if self.select:
            changes["select"] = self.select
        if self.ignore:
            changes["ignore"] = (*config.ignore, *self.ignore)
        if self.runtime_command:
            changes["runtime"] = config.runtime.__class__(self.runtime_command, config.runtime.timeout)
        return config.with_(**changes) if changes else config


_SEVERITIES = ("error", "warning", "information", "info", "hint")


class _Reader:
    """The client's settings object read key by key: a value of the wrong type is a problem
    named after its key (`vtlint.severity`), and the key's default is used instead."""

    def __init__(self, raw: dict[str, Any], prefix: str = "") -> None:
        self.raw = raw
        self.prefix = prefix
        self.problems: list[str] = []

    def get(self, key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        value = self.raw.get(key, default)
        if value is None or (isinstance(value, kind) and not (isinstance(value, bool) and kind is int)):
            return default if value is None else value
        names = " or ".join(_TYPE_NAMES[k] for k in (kind if isinstance(kind, tuple) else (kind,)))
        self.problems.append(f"`vtlint.{self.prefix}{key}` must be {names}, not {_TYPE_NAMES.get(type(value), 'that')}")
        return default

    def severities(self) -> dict[str, str]:
        table = self.get("severity", dict, {})
        wrong = [k for k, v in table.items() if not isinstance(v, str) or v.lower() not in _SEVERITIES]
        if wrong:
            self.problems.append(f"`vtlint.severity` maps a code prefix to one of {', '.join(_SEVERITIES)}; "
                                 f"{', '.join(map(repr, wrong[:3]))} ignored")
        return {str(k): v for k, v in table.items() if k not in wrong}


_TYPE_NAMES: dict[type, str] = {bool: "true or false", int: "a number", str: "a string", list: "a list",
                                dict: "an object", float: "a number", type(None): "null"}

def _codes(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list):
        return ()
    return tuple(str(v).strip().upper() for v in value if str(v).strip())


@dataclass(frozen=True)
class ConfigProblem:
    """A pyproject.toml that cannot be used, with the 0-based line to flag."""

    path: Path
    line: int
    message: str


@dataclass(frozen=True)
class Resolved:
    config: Config
    problem: ConfigProblem | None = None


def resolve_config(path: Path, folder: Path, settings: EditorSettings) -> Resolved:
    """The configuration for a file: the nearest `[tool.vtlint]` above it, else the
    defaults rooted at its workspace folder. A broken file falls back to the defaults."""
    try:
        config = load_config([path])
    except ConfigError as exc:
        return Resolved(settings.apply(Config(root=folder)), locate_problem(path, str(exc)))
    if config.config_file is None:
        config = config.with_(root=folder)
    return Resolved(settings.apply(config))


_TOML_AT = re.compile(r"\(at line (\d+), column \d+\)")


def locate_problem(path: Path, message: str) -> ConfigProblem:
    """Which pyproject.toml above `path` is broken, and on which line."""
    start = path if path.is_dir() else path.parent
    for folder in [start, *start.parents]:
        candidate = folder / "pyproject.toml"
        if not candidate.is_file():
            continue
        try:  # read as load_config read it: a regular file of bounded size, TOML of bounded depth
            text = read_text(candidate, MAX_CONFIG_BYTES, errors="replace")
            data = toml_loads(text)
        except OSError as exc:
            return ConfigProblem(candidate, 0, f"cannot read: {exc.strerror}")
        except ValueError as exc:  # not TOML, or nested too deep
            at = _TOML_AT.search(str(exc))
            return ConfigProblem(candidate, int(at.group(1)) - 1 if at else 0, str(exc))
        try:
            table = tool_table(data, candidate).get("vtlint")  # `tool = 5` is this file's problem
        except ConfigError as exc:
            return ConfigProblem(candidate, _key_line(text, "tool"), str(exc))
        if table is None:
            continue
        try:
            parse_table(table, candidate.parent, candidate) if isinstance(table, dict) else None
        except ConfigError as exc:
            return ConfigProblem(candidate, _table_line(text, str(exc)), str(exc))
        return ConfigProblem(candidate, _table_line(text, message), message)
    return ConfigProblem(start / "pyproject.toml", 0, message)


def _key_line(text: str, key: str) -> int:
    """The line assigning a top-level `key`, else the first."""
    return next((n for n, line in enumerate(text.splitlines()) if re.match(rf"{re.escape(key)}\s*=", line)), 0)


def _table_line(text: str, message: str) -> int:
    """The line of the offending key when the message names one, else the table header."""
    lines = text.splitlines()
    found = re.search(r"\[tool\.vtlint\]\.([\w-]+)", message) or re.search(r"unknown key '([\w-]+)'", message)
    name = found.group(1) if found else None
    in_table = False
    header = 0
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("["):
            in_table = stripped.startswith("[tool.vtlint")
            if in_table and not header:
                header = number
        elif in_table and name and re.match(rf"{re.escape(name)}\s*=", stripped):
            return number
    return header
