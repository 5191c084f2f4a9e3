"""Installed versions as eager code asks for them (`importlib.metadata.version("torch")`,
`packaging.version.parse(v) >= packaging.version.parse("2.6.0")`): an optional dependency's check
answered from the installed packages' metadata on disk, never by importing them."""

from __future__ import annotations

import re

from vtlint.analyzer import values as V
from vtlint.analyzer.values import Value

# the functions and classes of `packaging.version` that make a comparable version
PARSERS = frozenset({"packaging.version.parse", "packaging.version.Version"})

# PEP 440's form (epoch, release, pre, post, dev, local label), as packaging reads it
_VERSION = re.compile(
    r"^\s*v?(?:(?P<epoch>\d+)!)?(?P<release>\d+(?:\.\d+)*)"
    r"(?:[-_.]?(?P<pre_l>a|b|rc|alpha|beta|c|pre|preview)[-_.]?(?P<pre_n>\d*))?"
    r"(?:-(?P<post_n1>\d+)|[-_.]?(?:post|rev|r)[-_.]?(?P<post_n2>\d*))?"
    r"(?:[-_.]?dev[-_.]?(?P<dev_n>\d*))?(?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$", re.IGNORECASE)
_PRE = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}
_INF = float("inf")


def version_key(text: str) -> tuple[object, ...] | None:
    """The order packaging's `Version` sorts by, or None for text it would refuse."""
    found = _VERSION.match(text)
    if found is None:
        return None
    release = tuple(int(part) for part in found["release"].split("."))
    while len(release) > 1 and release[-1] == 0:
        release = release[:-1]
    dev = int(found["dev_n"] or 0) if found["dev_n"] is not None else _INF
    pre = (_PRE[found["pre_l"].lower()], int(found["pre_n"] or 0)) if found["pre_l"] else (
        (-_INF, -_INF) if dev != _INF and found["post_n1"] is None and found["post_n2"] is None else (_INF, _INF))
    post_n = found["post_n1"] or found["post_n2"]
    post = int(post_n or 0) if (found["post_n1"] is not None or found["post_n2"] is not None) else -_INF
    # a local label sorts after its public version, its numeric parts after alphanumeric ones
    local = tuple((1, int(part)) if part.isdigit() else (0, part.lower())
                  for part in re.split(r"[-_.]", found["local"])) if found["local"] else ()
    return (int(found["epoch"] or 0), release, pre, post, dev, local)


def parsed_version(args: list[Value]) -> Value:
    """`version.parse("2.13.0+cpu")`: a constant that compares as the version does."""
    text = args[0] if args else None
    if text is None or text.kind != V.CONST or not text.known or not isinstance(text.value, str):
        return V.unknown()
    key = version_key(text.value)
    return V.const(key) if key is not None else V.unknown()
