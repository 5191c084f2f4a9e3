"""One project root as the language server sees it: which files a lint must
analyze together so that cross-file inlining is seen, and the warm state kept
between lints (the dependency map learnt from the compiled entries' inline chains,
the last runtime facts, the parsed statements of its files)."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from pathlib import Path

from vtlint.analyzer.chunks import ChunkCache
from vtlint.analyzer.files import SourceFile, discover, display_path
from vtlint.check import CheckResult, RuntimeInput
from vtlint.config import Config
from vtlint.trace import Action

FULL_SCAN_LIMIT = 400  # a project with more files is never analyzed whole from the editor


@dataclass
class Lint:
    """A lint in progress, and the event that cancels it."""

    trigger: Path
    covers: set[Path]  # the files it analyzes and the open ones it publishes
    cancel: threading.Event = field(default_factory=threading.Event)
    requeue: bool = False  # cancelled for another file's lint: run again after it


@dataclass
class Project:
    root: Path
    config: Config
    # display path of a file with compiled entries -> the files its entries reach
    # (the finding sites, inline chains and related places of its findings)
    reaches: dict[str, set[str]] = field(default_factory=dict)
    scanned: bool = False  # the whole project was analyzed once: `reaches` is complete
    scanning: bool = False  # a whole-project scan is queued or running
    runtime: RuntimeInput | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one lint of a project at a time
    running: Lint | None = None  # the lint holding the lock, until it ends
    chunks: ChunkCache = field(default_factory=ChunkCache)  # parsed statements kept warm between lints

    def source_file(self, path: Path) -> SourceFile:
        return SourceFile(path.resolve(), display_path(path, self.root))

    def project_files(self) -> list[SourceFile] | None:
        """Every file of the project (discovery rules of the CLI), or None when too many."""
        files = discover([self.root], self.config).files
        return files if len(files) <= FULL_SCAN_LIMIT else None

    def related_to(self, displays: set[str]) -> set[str]:
        """The files a lint of `displays` needs: the ones their entries inline into,
        and the files whose entries inline into them (both from the last results)."""
        needed = set(displays)
        for entry_file, reached in self.reaches.items():
            if entry_file in displays:
                needed |= reached
            elif reached & displays:
                needed.add(entry_file)
                needed |= reached
        return needed

    def depends_on(self, display: str) -> bool:
        """Whether an entry elsewhere inlines code of `display` (a saved helper matters)."""
        return any(display in reached and entry_file != display for entry_file, reached in self.reaches.items())

    def learn(self, result: CheckResult, analyzed: set[str]) -> None:
        """Refresh the dependency map for the entry files just analyzed, from the
        predicted trace (every site, inline chain and INLINE callee of an entry) and
        from the findings (which also carry runtime-only facts)."""
        for display in analyzed:
            self.reaches.pop(display, None)
        for info in result.entries:
            self.reaches.setdefault(_file_of(info.entry), set())
        for event in result.predicted:
            reached = self.reaches.setdefault(_file_of(event.entry), set())
            reached.add(event.location.path)
            reached.update(r.location.path for r in (*event.chain, *event.related))
            if event.action is Action.INLINE and event.callee and ":" in event.callee:
                reached.add(_file_of(event.callee))
        for finding in result.findings:
            if finding.entry:
                reached = self.reaches.setdefault(_file_of(finding.entry), set())
                reached.add(finding.location.path)
                reached.update(r.location.path for r in (*finding.chain, *finding.related))


def _file_of(qualified: str) -> str:
    """`pkg/main.py:train_step` -> `pkg/main.py`."""
    return qualified.rpartition(":")[0]
