"""The runtime step of `vtlint check --runtime` and `vtlint trace`: run the
harness, read its structured trace, turn it into observed events, and report
every fault as a notification without losing what was traced.

Saved facts (`vtlint trace --output facts.json`) are a versioned JSON document:

    {"format": "vtlint-runtime-facts", "version": 1,
     "torch_version": "2.13.0+cpu", "root": "<project root when traced>",
     "harness": {"command", "exit_code", "timed_out", "not_started", "duration_s"},
     "coverage": [{"entry", "compiles", "frames", "graph_count", "op_count",
                   "graph_breaks", "recompile_limit_hit", "frame_skipped", "kernels"}],
     "kernels": {"cpp": N, "triton": N, "device": "cpu"|"gpu", "names": [...]},
     "events": [Event.to_dict(), ...],          # paths relative to the root
     "notifications": [Notification.to_dict(), ...],
     "probes": [...]}

A reader refuses another format, a newer version or a field of the wrong type
(facts-schema.json, checked with jsonschema) with one message naming the file."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from vtlint.bounded import loads, read_bytes
from vtlint.check import RuntimeInput
from vtlint.findings import Level, Location, Notification
from vtlint.runtime.events import EntryCoverage, Observed, ProjectFiles, to_events
from vtlint.runtime.harness import HarnessRun, run_harness, terminate_raises
from vtlint.runtime.structured_trace import (MAX_FACTS_BYTES, TraceFacts, UnsupportedTorchVersion,
                                              check_torch_version, parse_trace_dir)
from vtlint.trace import Event

FACTS_FORMAT = "vtlint-runtime-facts"
FACTS_VERSION = 1
FAULT = "runtime-fault"


class FactsError(Exception):
    """A facts file that cannot be used: reported as a usage error."""


@dataclass
class RuntimeFacts:
    """Everything one runtime step learned, ready to merge or to save."""

    events: list[Event] = field(default_factory=list)
    coverage: dict[str, EntryCoverage] = field(default_factory=dict)
    harness: dict[str, Any] = field(default_factory=dict)
    kernels: dict[str, Any] = field(default_factory=dict)
    notifications: list[Notification] = field(default_factory=list)
    probes: list[dict[str, Any]] = field(default_factory=list)
    torch_version: str | None = None
    root: str | None = None
    unlinked: list[dict[str, Any]] = field(default_factory=list)  # compiled code no project entry owns, and why

    def rebased(self, root: Path) -> RuntimeFacts:
        """The same facts with display paths relative to `root` (facts traced with
        another project root, e.g. `vtlint trace` run from a parent folder)."""
        if not self.root or Path(self.root).resolve() == root.resolve():
            return self
        files = ProjectFiles(root)
        old = Path(self.root)

        def move(path: str) -> str:
            return files.display(str(old / path)) or path

        def entry(name: str) -> str:
            path, sep, qual = name.rpartition(":")
            return f"{move(path)}{sep}{qual}" if sep and path.endswith(".py") else name

        def location(loc: Location) -> Location:
            return replace(loc, path=move(loc.path))

        events = [e.with_(location=location(e.location), entry=entry(e.entry),
                          callee=entry(e.callee) if e.callee else None,
                          chain=tuple(replace(r, location=location(r.location)) for r in e.chain),
                          related=tuple(replace(r, location=location(r.location)) for r in e.related))
                  for e in self.events]
        coverage = {entry(k): replace(v, entry=entry(v.entry)) for k, v in self.coverage.items()}
        return replace(self, events=events, coverage=coverage, root=str(root))

    def exercised(self, event: Event) -> bool:
        return Observed(self.events, self.coverage).exercised(event)

    def summary(self) -> dict[str, Any]:
        """What `CheckResult.runtime` carries: the harness, coverage, kernels."""
        return {
            "harness": self.harness,
            "torch_version": self.torch_version,
            "entries": [c.to_dict() for c in sorted(self.coverage.values(), key=lambda c: c.entry)],
            "compiles": sum(sum(c.frames.values()) for c in self.coverage.values()),
            "kernels": self.kernels,
            **({"unlinked": self.unlinked} if self.unlinked else {}),
            **({"probes": self.probes} if self.probes else {}),
        }

    def to_input(self) -> RuntimeInput:
        return RuntimeInput(events=self.events, exercised=self.exercised,
                            notifications=list(self.notifications), summary=self.summary())

    # saved facts

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FACTS_FORMAT, "version": FACTS_VERSION, "torch_version": self.torch_version,
            "root": self.root, "harness": self.harness,
            "coverage": [c.to_dict() for c in self.coverage.values()], "kernels": self.kernels,
            "events": [e.to_dict() for e in self.events],
            "notifications": [n.to_dict() for n in self.notifications], "probes": self.probes,
            "unlinked": self.unlinked,
        }

    @classmethod
    def from_dict(cls, data: Any) -> RuntimeFacts:
        if not isinstance(data, dict) or data.get("format") != FACTS_FORMAT:
            raise FactsError(f"not a vtlint runtime facts file (expected \"format\": \"{FACTS_FORMAT}\")")
        version = data.get("version")
        if not isinstance(version, int) or version > FACTS_VERSION:
            raise FactsError(f"facts format version {version!r} is newer than this vtlint reads ({FACTS_VERSION})")
        problem = _schema_problem(data)
        if problem:  # typed now, or a crash later while merging or rendering
            raise FactsError(f"damaged facts file: {problem}")
        try:
            coverage = {}
            for item in data.get("coverage", []):
                cov = EntryCoverage(**item)
                coverage[cov.entry] = cov
            return cls(
                events=[Event.from_dict(e) for e in data.get("events", [])],
                coverage=coverage,
                harness=dict(data.get("harness") or {}),
                kernels=dict(data.get("kernels") or {}),
                notifications=[Notification.from_dict(n) for n in data.get("notifications", [])],
                probes=list(data.get("probes") or []),
                unlinked=list(data.get("unlinked") or []),
                torch_version=data.get("torch_version"),
                root=data.get("root"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise FactsError(f"damaged facts file: {type(exc).__name__}: {exc}") from None

    def save(self, path: Path, inputs: Sequence[Path] = ()) -> None:
        """Write the facts to `path`, never over one of `inputs` (the harness, the config, the sources)."""
        from vtlint.report.output import write_atomic

        write_atomic(path, json.dumps(self.to_dict(), indent=1) + "\n", inputs)

    @classmethod
    def load(cls, path: Path) -> RuntimeFacts:
        try:
            data = loads(read_bytes(path, MAX_FACTS_BYTES))
        except OSError as exc:
            raise FactsError(f"cannot read {path}: {exc.strerror}") from None
        except ValueError as exc:  # not JSON, not UTF-8, or nested too deep
            raise FactsError(f"{path} is not JSON: {exc}") from None
        try:
            return cls.from_dict(data)
        except FactsError as exc:
            raise FactsError(f"{path}: {exc}") from None


@cache
def _validator() -> Any:
    from jsonschema import validators

    schema = json.loads((Path(__file__).parent / "facts-schema.json").read_text(encoding="utf-8"))
    return validators.validator_for(schema)(schema)


def _schema_problem(data: Any) -> str | None:
    """Where saved facts first break facts-schema.json (/events/3/location/line: ...), or None."""
    error = next(iter(_validator().iter_errors(data)), None)
    if error is None:
        return None
    return f"/{'/'.join(map(str, error.absolute_path))}: {error.message[:200]}"


def kernel_summary(facts: TraceFacts) -> dict[str, Any]:
    """The kernels Inductor generated: C++ on CPU, Triton on a GPU."""
    kernels = [k for c in facts.compiles for out in c.output_code for k in out.kernels]
    cpp = sorted({k.name for k in kernels if k.kind == "cpp"})
    triton = sorted({k.name for k in kernels if k.kind == "triton"})
    summary: dict[str, Any] = {"cpp": len(cpp), "triton": len(triton), "names": triton + cpp,
                               "device": "gpu" if triton else "cpu"}
    if not any(c.output_code for c in facts.compiles):
        summary["note"] = "no Inductor output in the trace (another backend, or nothing compiled)"
    elif not triton:
        summary["note"] = "Triton kernels need a GPU: this run generated C++ kernels for the CPU"
    return summary


def _fault(message: str, level: Level = Level.WARNING) -> Notification:
    return Notification(FAULT, message, level)


_SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSW|API_?KEY|CREDENTIAL|AUTH", re.IGNORECASE)
REDACTED = "<redacted>"
# Secrets by the shape of their value, wherever they come from (a harness printing its
# database URL): a URL's password, tokens with a vendor's prefix (GitHub, GitLab, Slack,
# OpenAI, Hugging Face, AWS), a JWT, and any 32+ character run of base64url characters
# mixing upper case, lower case and digits (hex digests and Python names never do; `/`
# ends a run, so a path is never taken for one).
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s/:@]*):[^\s/@]+@")
_TOKEN = re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|glpat-[\w-]{20,}|xox[abprs]-[\w-]{10,}"
                    r"|sk-[\w-]{20,}|hf_[A-Za-z0-9]{20,}|(?:AKIA|ASIA)[A-Z0-9]{16}"
                    r"|eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,})")
_LONG = re.compile(r"(?<![\w+=-])(?=[\w+=-]*[A-Z])(?=[\w+=-]*[a-z])(?=[\w+=-]*\d)[\w+=-]{32,}")


def _redact_secrets(text: str) -> str:
    """`text` without secrets: secret-looking environment variables by name (their value shown as
    `$NAME`), and the values that look like secrets by their shape."""
    for name, value in os.environ.items():
        if _SECRET_NAME.search(name) and len(value) >= 4:
            text = text.replace(value, f"${name}")
    text = _URL_PASSWORD.sub(rf"\1:{REDACTED}@", text)
    return _LONG.sub(REDACTED, _TOKEN.sub(REDACTED, text))


def redact(text: str, root: Path, scratch: Path) -> str:
    """Harness output and command lines end up in shared reports: never with the
    machine's paths (private temp dir, project root, home) or secrets."""
    text = _redact_secrets(text)
    for path, shown in ((scratch, "<tmp>"), (root, "."), (Path.home(), "~")):
        if len(str(path)) > 1:
            text = text.replace(str(path), shown)
    return text


def _harness(run: HarnessRun | None, root: Path, scratch: Path) -> dict[str, Any]:
    """The harness's record, its command line redacted as its output is."""
    if run is None:
        return {}
    record = run.to_dict()
    return {**record, "command": redact(str(record["command"]), root, scratch)}


def facts_from_trace(trace_dir: Path, root: Path, run: HarnessRun | None = None,
                     outside: Sequence[Path] = (), *, library_frames: bool = False) -> RuntimeFacts:
    """Parse what a run left in `trace_dir`; every problem becomes a notification.
    `library_frames`: frames compiled in installed packages are entries too (`to_events`)."""
    notes: list[Notification] = []
    if run is not None and (fault := run.fault()):
        tail = "\n".join(run.output_tail[-5:])
        notes.append(_fault(redact(f"{fault}; the facts traced before it stopped are still reported."
                                   + (f"\nLast output:\n{tail}" if tail else ""), root, trace_dir.parent), Level.ERROR))
    parsed = parse_trace_dir(trace_dir, check_version=False)
    if parsed.torch_version:
        try:
            check_torch_version(parsed.torch_version)
        except UnsupportedTorchVersion as exc:
            notes.append(_fault(f"runtime facts ignored: {exc}", Level.ERROR))
            return RuntimeFacts(notifications=notes, torch_version=parsed.torch_version, root=str(root),
                                harness=_harness(run, root, trace_dir.parent))
    if parsed.problems:
        more = parsed.problems.total - 3
        shown = "; ".join(parsed.problems[:3]) + (f" (and {more:,} more)" if more > 0 else "")
        notes.append(_fault(f"the structured trace is damaged or cut off: {shown}; "
                            "the intact entries are still reported"))
    if run is not None and run.not_started is None and not parsed.logs:
        notes.append(_fault("the harness wrote no structured trace: it never ran torch.compile "
                            "(or torch was not imported in the processes it started)"))
    observed = to_events(parsed, root, outside, library_frames=library_frames)
    return RuntimeFacts(
        events=observed.events, coverage=observed.coverage, harness=_harness(run, root, trace_dir.parent),
        kernels=kernel_summary(parsed), notifications=notes, torch_version=parsed.torch_version, root=str(root),
        unlinked=observed.unlinked,
    )


def run_step(
    command: str | Sequence[str],
    root: Path,
    *,
    timeout: float,
    probe: bool = False,
    probe_plan: list[dict[str, Any]] | None = None,
    progress: Callable[[float], None] | None = None,
    outside: Sequence[Path] = (),
    library_frames: bool = False,
) -> RuntimeFacts:
    """Run the harness in `root` under a private trace directory, then collect.
    `outside`: paths checked explicitly although outside `root` (their code is the project's too).
    `library_frames`: frames compiled in installed packages are entries too (`to_events`).
    With `probe`, the hook changes each baked constant of `probe_plan` (or, with
    no plan, every scalar argument) after the harness is done."""
    with terminate_raises():  # SIGTERM stops the harness's group and removes `scratch` too
        scratch = Path(tempfile.mkdtemp(prefix="vtlint-runtime-"))
        try:
            return _run_in(scratch, command, root, timeout=timeout, probe=probe, probe_plan=probe_plan,
                           progress=progress, outside=outside, library_frames=library_frames)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


def _run_in(scratch: Path, command: str | Sequence[str], root: Path, *, timeout: float, probe: bool,
            probe_plan: list[dict[str, Any]] | None, progress: Callable[[float], None] | None,
            outside: Sequence[Path], library_frames: bool = False) -> RuntimeFacts:
    trace_dir = scratch / "trace"
    trace_dir.mkdir()
    extra = {"VTLINT_PROBE": "1"} if probe else {}
    if probe and probe_plan is not None:
        (scratch / "probe_plan.json").write_text(json.dumps(probe_plan), encoding="utf-8")
        extra["VTLINT_PROBE_PLAN"] = str(scratch / "probe_plan.json")
    run = run_harness(command, cwd=root, trace_dir=trace_dir, output_file=scratch / "harness.out",
                      timeout=timeout, extra_env=extra, progress=progress)
    facts = facts_from_trace(trace_dir, root, run, outside, library_frames=library_frames)
    if probe:
        from vtlint.runtime.probes import attach_probes, read_probes

        facts.probes = read_probes(trace_dir, root, facts.notifications)
        facts.events = attach_probes(facts.events, facts.probes)
    return facts
