"""The trace both halves of vtlint produce: the decisions Dynamo makes (or will
make) for each compiled entry, in Dynamo's vocabulary.

The analyzer predicts a trace statically; the runtime reads one from the
structured log of a real run. Merging is a join of the two on `Event.key`, and
rules are views over the merged events (see `vtlint.rules`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from vtlint.findings import Evidence, Location, Related


class Action(str, Enum):
    """A decision of the InstructionTranslator worth recording."""

    WRAP = "wrap"  # a value from outside wrapped as a VariableTracker with a Source and a guard
    INLINE = "inline"  # a call walked into as UserFunctionVariable
    GRAPH_BREAK = "graph-break"  # the graph ends here; Dynamo resumes after this line
    RECOMPILE = "recompile"  # a guard that fails (or will fail) and recompiles the frame
    FRAME = "frame"  # a compiled frame (an entry or a resume function) with its counts


@dataclass(frozen=True)
class Event:
    action: Action
    location: Location
    entry: str  # the compiled entry, "path:Qual.name"
    frame: str = ""  # the code object's name: f, forward, torch_dynamo_resume_in_f_at_9
    source: str | None = None  # Source name, normalised: L['cfg'].scale
    variable_tracker: str | None = None  # ConstantVariable, TensorVariable, ...
    guard_kind: str | None = None  # EQUALS_MATCH, LENGTH_CHECK, TYPE_MATCH, ...
    guard: str | None = None  # the guard as Dynamo prints it
    value: str | None = None  # repr of the guarded value when known
    gb_type: str | None = None  # the registry's Gb_type
    gb_id: str | None = None  # GB0170
    callee: str | None = None  # "path:Qual.name" for project code, dotted name for libraries
    chain: tuple[Related, ...] = ()  # call sites from the entry down to this site
    related: tuple[Related, ...] = ()  # mutation sites, guard lines, ...
    confidence: str = "high"
    detail: dict[str, Any] = field(default_factory=dict)  # extra facts, e.g. graph_count

    @property
    def key(self) -> tuple[Any, ...]:
        """The join key of DESIGN.md. A guard's Source is scoped to the compiled frame,
        so WRAP and RECOMPILE join on the entry, not on the file of the line: the read
        may sit in an inlined helper and the change in another module."""
        path, line = self.location.path, self.location.line
        if self.action is Action.GRAPH_BREAK:
            return (self.action.value, path, line, self.gb_type)
        if self.action in (Action.WRAP, Action.RECOMPILE):
            return (self.action.value, self.entry, self.source)
        if self.action is Action.INLINE:
            return (self.action.value, path, line, callee_name(self.callee or ""))
        return (self.action.value, self.entry, self.frame)

    def with_(self, **changes: Any) -> Event:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action.value,
            "location": self.location.to_dict(),
            "entry": self.entry,
            "frame": self.frame,
            "source": self.source,
            "variable_tracker": self.variable_tracker,
            "guard_kind": self.guard_kind,
            "guard": self.guard,
            "value": self.value,
            "gb_type": self.gb_type,
            "gb_id": self.gb_id,
            "callee": self.callee,
            "chain": [r.to_dict() for r in self.chain],
            "related": [r.to_dict() for r in self.related],
            "confidence": self.confidence,
            "detail": self.detail,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        return cls(
            action=Action(data["action"]),
            location=Location.from_dict(data["location"]),
            entry=data["entry"],
            frame=data.get("frame", ""),
            source=data.get("source"),
            variable_tracker=data.get("variable_tracker"),
            guard_kind=data.get("guard_kind"),
            guard=data.get("guard"),
            value=data.get("value"),
            gb_type=data.get("gb_type"),
            gb_id=data.get("gb_id"),
            callee=data.get("callee"),
            chain=tuple(Related.from_dict(r) for r in data.get("chain", ())),
            related=tuple(Related.from_dict(r) for r in data.get("related", ())),
            confidence=data.get("confidence", "high"),
            detail=dict(data.get("detail") or {}),
        )


def callee_name(callee: str) -> str:
    """The code object's name of a callee: `examples/seed.py:Model.forward` and
    `torch.nn.functional.relu` -> `forward`, `relu` (what a runtime frame shows)."""
    return callee.rpartition(":")[2].rpartition(".")[2]


def entry_function(entry: str) -> str:
    """`examples/seed.py:Model.forward` -> `Model.forward`."""
    return entry.rpartition(":")[2]


def source_root(source: str) -> str:
    """The local or global a Source starts from: `L['opts'].gain` -> `L['opts']`."""
    end = source.find("]")
    return source[: end + 1] if source.startswith(("L[", "G[")) and end != -1 else source


@dataclass(frozen=True)
class MergedEvent:
    """An event with its evidence: the predicted one, the observed one, or both."""

    event: Event  # the predicted event when there is one, else the observed one
    evidence: Evidence
    observed: Event | None = None  # the runtime's own record, with its own words
