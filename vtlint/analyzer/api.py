"""What the static pass hands to the rest of vtlint: a predicted trace."""

from __future__ import annotations

from dataclasses import dataclass, field

from vtlint.findings import Kind, Location, Notification
from vtlint.trace import Event


# The kind of the notification for a compiled value the static pass could not follow
# (`torch.compile(make_model())`): the summary names each, and never says all checks passed.
UNFOLLOWED_COMPILE = "unfollowed-compile"
# ... for a file given up whole (too large, over its time budget): the summary says it, never an all-clear
FILE_SKIPPED = "file-skipped"


@dataclass(frozen=True)
class FileProblem:
    """A file the analyzer could not use: reported as a VTL001/VTL002 finding."""

    kind: Kind  # Kind.SYNTAX_ERROR or Kind.IO_ERROR
    location: Location
    message: str


@dataclass(frozen=True)
class EntryInfo:
    """A compiled entry and the options that change Dynamo's answers for it."""

    entry: str  # "path:Qual.name"
    location: Location  # the def line of the entry function
    how: str  # decorator | call | module.compile | config | --entry | assume-compiled
    options: dict[str, object] = field(default_factory=dict)  # fullgraph, dynamic, backend, mode
    # the project's lines through which the compiled code is reached: where it is compiled
    # (`torch.compile(model)`, `model.compile()`, the decorator) and the calls of the compiled callable
    compiled_at: Location | None = None
    called_at: tuple[Location, ...] = ()


@dataclass
class Prediction:
    events: list[Event] = field(default_factory=list)
    entries: list[EntryInfo] = field(default_factory=list)
    problems: list[FileProblem] = field(default_factory=list)
    notifications: list[Notification] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)  # display path -> source text
    cut_short: bool = False  # a file or an entry ran out of time: this result is not cached
