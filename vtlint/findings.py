"""The one Finding model every component shares: analyzer and runtime feed it,
formatters, SARIF and the language server read it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any


class Kind(str, Enum):
    """What Dynamo decision a finding is about."""

    GRAPH_BREAK = "graph-break"
    BAKED_CONSTANT = "baked-constant"
    INLINED_CALL = "inlined-call"
    RECOMPILE = "recompile"
    SYNTAX_ERROR = "syntax-error"
    IO_ERROR = "io-error"
    SUPPRESSION = "suppression"


class Evidence(str, Enum):
    """How a finding is known: the join of the static and the runtime trace."""

    PREDICTED = "predicted"  # static only, code not exercised at runtime
    CONFIRMED = "confirmed"  # predicted and seen at runtime
    REFUTED = "refuted"  # predicted, code exercised, not seen
    RUNTIME_ONLY = "runtime-only"  # seen at runtime, missed by the static pass


class Level(str, Enum):
    """Severity, named as SARIF names it."""

    NOTE = "note"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return _LEVEL_RANK[self]


_LEVEL_RANK = {Level.NOTE: 0, Level.WARNING: 1, Level.ERROR: 2}


@dataclass(frozen=True, order=True)
class Location:
    """A span in a file. `path` is POSIX-style and relative to the project root
    when the file is inside it; lines and columns are 1-based, the end exclusive."""

    path: str
    line: int
    column: int = 1
    end_line: int | None = None  # defaults to `line`
    end_column: int | None = None  # defaults to `column`

    def __post_init__(self) -> None:
        # An empty span at the start when no end is given, so equal places compare equal.
        if self.end_line is None:
            object.__setattr__(self, "end_line", self.line)
        if self.end_column is None:
            object.__setattr__(self, "end_column", self.column)

    @property
    def end(self) -> tuple[int, int]:
        return (self.end_line or self.line, self.end_column or self.column)

    def to_dict(self) -> dict[str, Any]:
        end_line, end_column = self.end
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": end_line,
            "end_column": end_column,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Location:
        return cls(
            path=data["path"],
            line=int(data["line"]),
            column=int(data.get("column", 1)),
            end_line=data.get("end_line"),
            end_column=data.get("end_column"),
        )


@dataclass(frozen=True)
class Related:
    """A place that explains a finding: a mutation site, a guard line, a call in
    the inline chain, the compiled entry."""

    location: Location
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"location": self.location.to_dict(), "message": self.message}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Related:
        return cls(Location.from_dict(data["location"]), data["message"])


@dataclass(frozen=True)
class Edit:
    """Replace the text of `location` with `replacement`."""

    location: Location
    replacement: str

    def to_dict(self) -> dict[str, Any]:
        return {"location": self.location.to_dict(), "replacement": self.replacement}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Edit:
        return cls(Location.from_dict(data["location"]), data["replacement"])


@dataclass(frozen=True)
class Fix:
    """A suggested remedy; `edits` is empty when it is advice only."""

    description: str
    edits: tuple[Edit, ...] = ()
    safe: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "description": self.description,
            "edits": [e.to_dict() for e in self.edits],
            "safe": self.safe,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Fix:
        return cls(
            description=data["description"],
            edits=tuple(Edit.from_dict(e) for e in data.get("edits", ())),
            safe=bool(data.get("safe", False)),
        )


@dataclass(frozen=True)
class Finding:
    """One thing worth telling a user about what Dynamo does with their code."""

    code: str
    kind: Kind
    level: Level
    location: Location
    message: str
    source: str | None = None  # Dynamo Source name, e.g. L['n'] or G['cfg'].scale
    variable_tracker: str | None = None  # e.g. ConstantVariable
    gb_id: str | None = None  # graph-break registry id, e.g. GB0170
    guard: str | None = None  # e.g. EQUALS_MATCH: L['n'] == 3
    evidence: Evidence = Evidence.PREDICTED
    confidence: str = "high"  # high | medium | low
    entry: str | None = None  # the compiled entry, e.g. examples/seed.py:f
    entries: tuple[str, ...] = ()  # every compiled entry that reaches this site, when more than one
    related: tuple[Related, ...] = ()
    chain: tuple[Related, ...] = ()  # inline chain from the entry to this site
    fix: Fix | None = None
    runtime: dict[str, Any] = field(default_factory=dict)  # the runtime's own words
    # where Dynamo saw it, in an installed package, when the finding is reported at the project line that
    # reaches that code (report/attribution.py); several when frames saw the same cause
    library: tuple[Related, ...] = ()
    # the findings a report's view shows as this one (report/groups.py); never serialized: reports carry each
    members: tuple[Finding, ...] = field(default=(), compare=False)

    def with_(self, **changes: Any) -> Finding:
        return replace(self, **changes)

    @property
    def sort_key(self) -> tuple[Any, ...]:
        return (self.location.path, self.location.line, self.location.column, self.code, self.message)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "kind": self.kind.value,
            "level": self.level.value,
            **self.location.to_dict(),
            "message": self.message,
            "source": self.source,
            "variable_tracker": self.variable_tracker,
            "gb_id": self.gb_id,
            "guard": self.guard,
            "evidence": self.evidence.value,
            "confidence": self.confidence,
            "entry": self.entry,
            "entries": list(self.entries),
            "related": [r.to_dict() for r in self.related],
            "chain": [r.to_dict() for r in self.chain],
            "fix": self.fix.to_dict() if self.fix else None,
            "runtime": self.runtime,
            "library": [r.to_dict() for r in self.library],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        return cls(
            code=data["code"],
            kind=Kind(data["kind"]),
            level=Level(data["level"]),
            location=Location.from_dict(data),
            message=data["message"],
            source=data.get("source"),
            variable_tracker=data.get("variable_tracker"),
            gb_id=data.get("gb_id"),
            guard=data.get("guard"),
            evidence=Evidence(data.get("evidence", "predicted")),
            confidence=data.get("confidence", "high"),
            entry=data.get("entry"),
            entries=tuple(data.get("entries", ())),
            related=tuple(Related.from_dict(r) for r in data.get("related", ())),
            chain=tuple(Related.from_dict(r) for r in data.get("chain", ())),
            fix=Fix.from_dict(data["fix"]) if data.get("fix") else None,
            runtime=dict(data.get("runtime") or {}),
            library=tuple(Related.from_dict(r) for r in data.get("library", ())),
        )


@dataclass(frozen=True)
class Notification:
    """Something about the run itself: a file that could not be read, a harness
    that crashed, a limit that was hit. Never lost, never a traceback."""

    kind: str  # parse-error | io-error | config | unmatched-entry | runtime-fault | limit | internal
    message: str
    level: Level = Level.WARNING
    location: Location | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "level": self.level.value,
            "message": self.message,
            "location": self.location.to_dict() if self.location else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Notification:
        loc = data.get("location")
        return cls(
            kind=data["kind"],
            message=data["message"],
            level=Level(data.get("level", "warning")),
            location=Location.from_dict(loc) if loc else None,
        )
