"""The catalog: every Rule subclass found in `vtlint.rules.catalog`, by code."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from vtlint.rules import catalog
from vtlint.rules.base import Rule


@cache
def all_rules() -> dict[str, type[Rule]]:
    """Import each module of the catalog once and collect its rules, sorted by code."""
    found: dict[str, type[Rule]] = {}
    for info in pkgutil.iter_modules(catalog.__path__):
        module = importlib.import_module(f"{catalog.__name__}.{info.name}")
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, Rule) and "code" in vars(obj):
                if obj.code in found and found[obj.code] is not obj:
                    raise RuntimeError(f"duplicate rule code {obj.code}")
                found[obj.code] = obj
    return dict(sorted(found.items()))


def get_rule(code: str) -> type[Rule] | None:
    return all_rules().get(code.upper())


def resolve_selection(
    select: list[str], ignore: list[str], extend_select: list[str] = ()  # type: ignore[assignment]
) -> set[str]:
    """Codes enabled by Ruff-style prefix selection: the longest matching prefix
    wins; opt-in rules need their exact code selected."""
    selectors = [(p.upper(), True) for p in [*select, *extend_select]] + [(p.upper(), False) for p in ignore]
    enabled: set[str] = set()
    for code, rule in all_rules().items():
        best: tuple[int, bool] | None = None
        for prefix, on in selectors:
            if code.startswith(prefix) and (best is None or len(prefix) >= best[0]):
                best = (len(prefix), on)
        if best is None or not best[1]:
            continue
        if not rule.default_enabled and best[0] < len(code):
            continue
        enabled.add(code)
    return enabled


def unknown_selectors(prefixes: list[str]) -> list[str]:
    """Selectors that match no rule: a typo the user should hear about."""
    codes = all_rules()
    return [p for p in prefixes if not any(c.startswith(p.upper()) for c in codes)]
