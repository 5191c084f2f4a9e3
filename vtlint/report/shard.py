"""`--shard K/N`: a deterministic slice of the files, for CI matrices.

A file belongs to shard `hash(display path) mod N`, with a stable hash (not Python's
salted `hash`), so every machine agrees, shards are disjoint and together cover
every file, and adding a file never moves the others."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vtlint.analyzer.files import discover
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
    """`run_check` over the files of `shard` only. Discovery's own notes and missing
    paths are kept in every shard (`vtlint merge` removes the repeats); findings
    stay with the shard that analyzed their entry, even when they lie in another file."""
    discovery = discover(paths, config)
    files = [f for f in discovery.files if shard.owns(f.display)]
    result = run_check(paths, config, files=files, **options)
    result.missing = discovery.missing
    result.notifications[:0] = discovery.notifications
    return result
