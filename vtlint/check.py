"""One run of vtlint: files -> analyzer -> predictions (+ runtime facts) ->
merge -> rules -> suppressions -> findings. The CLI and the language server
both call `run_check`."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pathspec

from vtlint.analyzer import EntryInfo, Prediction, analyze
from vtlint.analyzer.breaks import snapshot_notifications
from vtlint.analyzer.chunks import ChunkCache
from vtlint.analyzer.files import SourceFile, discover, gitignore_spec
from vtlint.config import DEFAULT_EXCLUDE, Config
from vtlint.findings import Finding, Kind, Level, Notification
from vtlint.report.attribution import Attribution, as_the_walk_places, per_cause, unreached
from vtlint.report.merge import merge
from vtlint.report.suppressions import apply_suppressions
from vtlint.rules.base import Rule, RuleContext
from vtlint.rules.registry import all_rules, resolve_selection
from vtlint.rules.trace_rules.snapshot import installed_torch_version
from vtlint.trace import Event, MergedEvent


@dataclass
class CheckResult:
    findings: list[Finding] = field(default_factory=list)
    notifications: list[Notification] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    entries: list[EntryInfo] = field(default_factory=list)
    predicted: list[Event] = field(default_factory=list)  # the static trace (the LSP learns cross-file inlining from it)
    missing: list[str] = field(default_factory=list)
    rules: dict[str, type[Rule]] = field(default_factory=dict)  # the rules enabled for the run
    torch_version: str | None = None
    runtime: dict[str, object] = field(default_factory=dict)  # coverage, compiles, harness status
    root: Path | None = None  # the project root the findings' paths are relative to
    texts: dict[str, str] = field(default_factory=dict, repr=False)  # display path -> source (the HTML report)


@dataclass(frozen=True)
class RuntimeInput:
    """Facts from a runtime step, already turned into events."""

    events: list[Event]
    exercised: Callable[[Event], bool]
    notifications: list[Notification] = field(default_factory=list)
    summary: dict[str, object] = field(default_factory=dict)


def enabled_rules(config: Config) -> dict[str, type[Rule]]:
    codes = resolve_selection(list(config.select), list(config.ignore), list(config.extend_select))
    return {code: rule for code, rule in all_rules().items() if code in codes}


def _file_ignored(code: str, path: str, config: Config) -> bool:
    for pattern, prefixes in config.per_file_ignores.items():
        if fnmatch.fnmatch(path, pattern) or fnmatch.fnmatch(Path(path).name, pattern):
            if any(code.startswith(p.upper()) for p in prefixes):
                return True
    return False


def findings_from(merged: list[MergedEvent], rules: dict[str, type[Rule]], config: Config,
                  attribution: Attribution | None = None) -> list[Finding]:
    """Each rule's findings; with `attribution`, those in an installed package's frames at the project
    line that reaches them (report/attribution.py)."""
    ctx = RuleContext(dynamo=config.dynamo.to_dict())
    instances = [rule() for rule in rules.values()]
    for rule in instances:
        merged = rule.fold(merged, ctx)
    found: list[Finding] = []
    for item in merged:
        for rule in instances:
            if rule.applies(item, ctx):
                finding = rule.build(item, ctx)
                if finding is not None and attribution is not None:
                    finding = attribution.apply(finding, item)
                if finding is not None:
                    found.append(finding)
    return found


def _problem_findings(prediction: Prediction, rules: dict[str, type[Rule]]) -> list[Finding]:
    code_for = {Kind.SYNTAX_ERROR: "VTL001", Kind.IO_ERROR: "VTL002"}
    found = []
    for problem in prediction.problems:
        code = code_for[problem.kind]
        if code in rules:
            found.append(Finding(code, problem.kind, rules[code].level, problem.location, problem.message, confidence="high"))
    return found


def run_check(
    paths: list[Path],
    config: Config,
    *,
    jobs: int = 1,
    use_cache: bool = True,
    runtime: RuntimeInput | None = None,
    files: list[SourceFile] | None = None,
    progress: Callable[[int, int], None] | None = None,
    overrides: dict[Path, str] | None = None,
    chunks: ChunkCache | None = None,
) -> CheckResult:
    result = CheckResult(rules=enabled_rules(config), torch_version=installed_torch_version(), root=config.root)
    if files is None:
        discovery = discover(paths, config)
        files, result.missing = discovery.files, discovery.missing
        result.notifications.extend(discovery.notifications)
    result.files = [f.display for f in files]
    prediction = analyze(files, config, jobs=jobs, use_cache=use_cache, progress=progress, overrides=overrides,
                         chunks=chunks)
    result.entries = prediction.entries
    result.texts = prediction.texts
    result.predicted = prediction.events
    result.notifications.extend(prediction.notifications)
    if result.entries:  # graph-break decisions followed this snapshot: say so when it is not the user's torch
        result.notifications.extend(snapshot_notifications())
    runtime = runtime and _reached_only(runtime)
    merged = merge(
        prediction.events,
        as_the_walk_places(runtime.events) if runtime else None,
        runtime.exercised if runtime else (lambda _e: False),
    )
    if runtime:
        result.notifications.extend(runtime.notifications)
        result.runtime = dict(runtime.summary)
    attribution = Attribution(prediction.entries, prediction.events, prediction.texts)
    findings = _problem_findings(prediction, result.rules) + findings_from(merged, result.rules, config, attribution)
    findings = [f for f in findings if not _file_ignored(f.code, f.location.path, config)]
    findings, unused = apply_suppressions(findings, prediction.texts, report_unused="VTL901" in result.rules)
    compiled = frozenset(info.entry for info in prediction.entries)
    result.findings = sorted(_dedupe(per_cause(findings, compiled) + unused), key=lambda f: f.sort_key)
    return result


NOT_REACHED = "it is outside the project and no project call was on the stack torch compiled it from"


def _reached_only(runtime: RuntimeInput) -> RuntimeInput:
    """The runtime's facts without the frames of installed packages no project call reached: the summary
    names those `not linked`."""
    gone = unreached(runtime.events)
    if not gone:
        return runtime
    entries = [c for c in runtime.summary.get("entries") or [] if isinstance(c, dict)]
    unlinked = [{"code": str(c["entry"]).rpartition(":")[2], "file": str(c["entry"]).rpartition(":")[0],
                 "why": NOT_REACHED, "compiles": c.get("compiles", 0)} for c in entries if c.get("entry") in gone]
    summary = {**runtime.summary, "entries": [c for c in entries if c.get("entry") not in gone],
               "unlinked": [*(runtime.summary.get("unlinked") or []), *unlinked]}  # type: ignore[misc]
    return replace(runtime, events=[e for e in runtime.events if e.entry not in gone], summary=summary)


def _dedupe(findings: list[Finding]) -> list[Finding]:
    """One finding per site and decision: the same break or constant reached through
    several compiled entries (a helper two forwards call) lists those entries. Each
    entry names the value by its own Source, so messages are compared without it;
    two values of one entry stay two findings."""
    merged: dict[tuple[object, ...], list[Finding]] = {}
    for f in sorted(findings, key=lambda f: (f.entry or "", f.sort_key)):
        same = merged.setdefault((f.code, f.location, _without_source(f), f.gb_id), [])
        if any(g.source == f.source and f.entry in _entries(g) for g in same):
            continue
        into = next((i for i, g in enumerate(same) if f.entry and f.entry not in _entries(g)), None)
        if into is None:
            same.append(f)
        else:
            same[into] = same[into].with_(entries=(*_entries(same[into]), f.entry))
    return [f for group in merged.values() for f in group]


def _entries(finding: Finding) -> tuple[str | None, ...]:
    return finding.entries or (finding.entry,)


def _without_source(finding: Finding) -> str:
    return finding.message.replace(finding.source, "\0") if finding.source else finding.message


def exit_code(result: CheckResult, fail_level: Level) -> int:
    """0: nothing at or above the fail level; 1: findings; 2 is for errors (CLI)."""
    return 1 if any(f.level.rank >= fail_level.rank for f in result.findings) else 0


def why_empty(paths: list[Path], config: Config) -> list[str]:
    """Why a run analyzed no file, one line per given path that exists: the exclusion
    that applied (named as Ruff names it), or that it holds no Python file."""
    reasons = []
    for given in paths:
        if not given.exists():
            continue  # already an error of its own
        absolute = Path(os.path.abspath(given))
        reasons.append(f"{given}: {_exclusion(absolute, config) or _no_python(config)}")
    return reasons


def _no_python(config: Config) -> str:
    return f"no Python files (include = {list(config.include)})"


def _exclusion(path: Path, config: Config) -> str | None:
    """The exclude pattern or .gitignore that hides `path` (or a folder above it, up to the root)."""
    try:
        below = path.relative_to(config.root).as_posix()
    except ValueError:
        below = path.name
    probe = below + ("/" if path.is_dir() else "")
    where = f" in {config.config_file.name}" if config.config_file else ""
    for key, patterns in (("exclude", config.exclude), ("extend-exclude", config.extend_exclude)):
        for pattern in patterns:
            spec = pathspec.GitIgnoreSpec.from_lines([pattern])
            if spec.match_file(probe):
                default = " (a default)" if key == "exclude" and config.exclude == DEFAULT_EXCLUDE else where
                return f"excluded by {key} pattern {pattern!r}{default}"
    return _gitignored(path, config) if config.respect_gitignore else None


def _gitignored(path: Path, config: Config) -> str | None:
    """The first .gitignore, from the root down, that ignores `path` or a folder above it."""
    folders = [config.root, *(p for p in reversed(path.parents) if config.root in p.parents)]
    for folder in folders:
        spec, _ = gitignore_spec(folder, config.root)  # one skipped was already said by the discovery
        if spec is None:
            continue
        try:
            rel = path.relative_to(folder).as_posix()
        except ValueError:
            continue
        if spec.match_file(rel + ("/" if path.is_dir() else "")):
            shown = os.path.relpath(folder / ".gitignore", config.root)
            return f"ignored by {Path(shown).as_posix()} (respect-gitignore = true)"
    return None
