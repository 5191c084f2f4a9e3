"""`--shard K/N`: a deterministic slice of the report, for CI matrices.

A file belongs to shard `hash(display path) mod N`, with a stable hash (not Python's
salted `hash`), so every machine agrees, shards are disjoint and together cover
every file, and adding a file never moves the others."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vtlint.check import CheckResult, run_check
from vtlint.config import Config


@dataclass(frozen=True)
class Shard:
    index: int  # K, 1-based as written on the command line
    count: int  # N

    @classmethod
    def parse(cls, text: str) -> Shard:
        """`K/N` with 1 <= K <= N; ValueError with a readable message otherwise."""
        k, sep, n = text.partition("/")
        try:
            index, count = int(k), int(n)
        except ValueError:
            raise ValueError(f"expected K/N, e.g. 1/4, got {text!r}") from None
        if not sep or count < 1 or not 1 <= index <= count:
            raise ValueError(f"expected K/N with 1 <= K <= N, got {text!r}")
        return cls(index, count)

    def owns(self, display_path: str) -> bool:
        return shard_of(display_path, self.count) == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def shard_of(display_path: str, count: int) -> int:
    digest = hashlib.sha256(display_path.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") % count


def run_shard(paths: list[Path], config: Config, shard: Shard, **options: Any) -> CheckResult:
    """`run_check` over every file -- a compiled entry may call into any of them, and a
    site reached from entries of several files is one finding -- reporting only what
    lies in the files of `shard`: findings and located notifications by their file,
    entries by the file that defines them. The shards' reports are disjoint and
    together are exactly one run's (`vtlint merge`); notifications without a place
    and missing paths are in every shard (merge removes the repeats)."""
    result = run_check(paths, config, **options)
    result.files = [display for display in result.files if shard.owns(display)]
    result.entries = [e for e in result.entries if shard.owns(e.location.path)]
    result.findings = [f for f in result.findings if shard.owns(f.location.path)]
    result.notifications = [n for n in result.notifications if n.location is None or shard.owns(n.location.path)]
    return result
