"""Configuration text the calling script parses: `yaml.safe_load(CONFIG)` / `json.loads(CONFIG)`
of a string it holds, or `json.load(f)` of a data file it opened (variables/data_files). Parsing
data runs no user code, so the eager run reads the text as the program will (nested dicts of
hyperparameters that build the model), with the safe loader only.
The parsed data is followed up to MAX_ITEMS values in all: YAML's aliases share one object
among many places (an 898-byte "billion laughs" is a billion strings once expanded)."""

from __future__ import annotations

import json
from typing import Any

from vtlint.analyzer import values as V
from vtlint.analyzer.bounds import ITEMS, MAX_ITEMS, Allowance, TooLarge
from vtlint.analyzer.values import Value

PARSERS = frozenset({"json.loads", "json.load", "yaml.safe_load", "yaml.load", "yaml.full_load"})
_MAX_TEXT = 200_000  # characters: a configuration, not a dataset


def parse_config_text(name: str, text: str) -> Value:
    """The parsed value, or unknown when the text does not parse (or PyYAML is not installed)."""
    if len(text) > _MAX_TEXT:
        return V.unknown()
    try:
        if name.startswith("json."):
            data = json.loads(text)
        else:
            import yaml  # optional: the user's environment may not have it

            data = yaml.safe_load(text)
    except Exception:  # noqa: BLE001 - text the program's own parser would reject, or no PyYAML
        return V.unknown()
    try:
        return _value(data, 0, Allowance(MAX_ITEMS))
    except TooLarge:
        return V.too_large(None, ITEMS)


def _value(data: Any, depth: int, allowance: Allowance) -> Value:
    if depth > 16:
        return V.unknown()
    if data is None or isinstance(data, (bool, int, float, str)):
        return V.const(data)
    if isinstance(data, (list, dict)) and not allowance.take(len(data)):
        raise TooLarge
    if isinstance(data, list):
        return Value(V.LIST, items=[_value(item, depth + 1, allowance) for item in data])
    if isinstance(data, dict) and all(isinstance(k, (str, int, float, bool)) for k in data):
        return Value(V.DICT, keys=list(data), items=[_value(v, depth + 1, allowance) for v in data.values()])
    return V.unknown()
