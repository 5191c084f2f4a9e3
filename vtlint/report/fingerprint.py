"""Stable identities for findings, shared by SARIF's partialFingerprints,
baselines and `vtlint merge`.

A fingerprint must survive lines inserted above a finding, so it hashes what the
finding is about (code, file, compiled entry, Source or graph-break id), the text of
its line with whitespace normalised, and the occurrence index among findings that
agree on all of that -- never the line number."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from vtlint.analyzer.files import SourceError, SourceFile, read_source
from vtlint.findings import Finding

NAMESPACE = "vtlint/v1"  # the partialFingerprints key; bump the version when the recipe changes

LineText = Callable[[str, int], str]


def normalise(line: str) -> str:
    """Whitespace-insensitive: re-indenting or re-spacing a line keeps its identity."""
    return " ".join(line.split())


class SourceLines:
    """Lines of the files findings point at, read once, as Python decodes them.
    A file that cannot be read contributes empty lines (its findings stay distinct
    by code, entry and Source)."""

    def __init__(self, root: Path, texts: dict[str, str] | None = None) -> None:
        self.root = root
        self._lines: dict[str, list[str]] = {p: t.splitlines() for p, t in (texts or {}).items()}

    def __call__(self, path: str, line: int) -> str:
        lines = self._lines.get(path)
        if lines is None:
            lines = self._lines[path] = self._read(path)
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def _read(self, path: str) -> list[str]:
        file = Path(path) if Path(path).is_absolute() else self.root / path
        try:
            return read_source(SourceFile(file, path)).splitlines()
        except SourceError:
            return []


def identity(finding: Finding, line_text: str) -> tuple[str, ...]:
    """What a finding is about, without its position."""
    about = finding.source or finding.gb_id or finding.guard or ""
    return (finding.code, finding.location.path, finding.entry or "", about, normalise(line_text))


def fingerprints(findings: Iterable[Finding], line_text: LineText) -> list[str]:
    """One fingerprint per finding, in the order given. Findings that share an
    identity are numbered in source order, so two identical ones stay distinct."""
    items = list(findings)
    identities = [identity(f, line_text(f.location.path, f.location.line)) for f in items]
    order = sorted(range(len(items)), key=lambda i: items[i].sort_key)
    seen: Counter[tuple[str, ...]] = Counter()
    occurrence = [0] * len(items)
    for i in order:
        occurrence[i] = seen[identities[i]]
        seen[identities[i]] += 1
    return [_digest((*ident, str(occ))) for ident, occ in zip(identities, occurrence)]


def _digest(parts: tuple[str, ...]) -> str:
    data = "\x1f".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:32]
