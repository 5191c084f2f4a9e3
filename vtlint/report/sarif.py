"""SARIF 2.1.0 for GitHub code scanning: one run per invocation, static and runtime
findings together, built with sarif-om and serialized with jschema-to-python.

Paths are repository-relative URIs under `%SRCROOT%` (GitHub resolves them against
the checkout); a file of an installed package is relative to its own base,
`SITE_PACKAGES`; a file outside the repository gets an absolute `file:` URI and the
checkout goes to `invocations[].workingDirectory` (GitHub's rule GH1006). Output is
deterministic: findings and rules sorted, no timestamps, no machine names."""

from __future__ import annotations

import io
import json
import posixpath
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import sarif_om as om
from jschema_to_python.to_json import to_json

from vtlint import __version__
from vtlint.bounded import MiB, loads, read_bytes
from vtlint.check import CheckResult
from vtlint.findings import Finding, Level, Notification, Related
from vtlint.findings import Location as VtLocation
from vtlint.report.attribution import inside_install
from vtlint.report.fingerprint import NAMESPACE, SourceLines, fingerprints
from vtlint.report.uris import Paths, uri_base_ids
from vtlint.report.sarif_github import MAX_DESCRIPTION, SHOWN_TAGS, enforce_limits
from vtlint.report.text import META_KINDS
from vtlint.rules.base import Rule, gb_url
from vtlint.rules.registry import all_rules

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/vtlint/vtlint"
DEFAULT_CATEGORY = "vtlint"
_PROBLEM_SEVERITY = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "recommendation"}


def render_sarif(
    result: CheckResult,
    *,
    root: Path | None = None,
    category: str = DEFAULT_CATEGORY,
    prints: Sequence[str] | None = None,
    shard: str | None = None,
) -> str:
    """The SARIF log of one vtlint run, as text. `root` is the project root (display
    paths are relative to it); `prints` are the findings' fingerprints when the
    caller already computed them over a larger set (a baseline filtered some out);
    `shard` is `K/N` for a `--shard` run, so that `vtlint merge` sums its counts."""
    return dump(build_log(result, Paths.for_root(root or Path.cwd()), category, prints, shard))


def dump(log: dict[str, Any]) -> str:
    return json.dumps(log, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def build_log(
    result: CheckResult,
    paths: Paths,
    category: str = DEFAULT_CATEGORY,
    prints: Sequence[str] | None = None,
    shard: str | None = None,
) -> dict[str, Any]:
    """The log as JSON data: sarif-om objects, serialized, with GitHub's limits applied."""
    findings = list(result.findings)
    rules = _rules_used(findings, result.rules)
    index = {code: i for i, code in enumerate(rules)}
    lines = SourceLines(paths.root)
    if prints is None:
        prints = fingerprints(findings, lines)
    shown = [_widened(f, lines) for f in findings]
    results = [_result(f, index[f.code], fp, paths) for f, fp in zip(shown, prints)]
    notes = _notifications(result)
    outside = any(_outside(f, paths) for f in findings)
    run = om.Run(
        tool=om.Tool(driver=_driver(rules)),
        results=results,
        invocations=[_invocation(result, notes, paths, outside, shard)],
        automation_details=om.RunAutomationDetails(id=category.rstrip("/") + "/"),
        original_uri_base_ids=uri_base_ids(paths, _displays(findings, notes)),
        column_kind="unicodeCodePoints",
    )
    log = json.loads(to_json(om.SarifLog(version="2.1.0", schema_uri=SCHEMA_URI, runs=[run])))
    _restore_levels(log["runs"][0], findings, rules, notes)
    enforce_limits(log)
    return log


def _restore_levels(
    run: dict[str, Any], findings: list[Finding], rules: dict[str, type[Rule]], notes: list[Notification]
) -> None:
    """jschema-to-python drops values equal to the attrs default ("warning"), but a
    result without `level` takes its rule's default level, which may differ: write
    every level out."""
    for sarif_result, finding in zip(run["results"], findings):
        sarif_result["level"] = finding.level.value
    for descriptor, rule in zip(run["tool"]["driver"].get("rules", []), rules.values()):
        descriptor["defaultConfiguration"]["level"] = rule.level.value
    for sarif_note, note in zip(run["invocations"][0].get("toolExecutionNotifications", []), notes):
        sarif_note["level"] = note.level.value


def _widened(finding: Finding, lines: SourceLines) -> Finding:
    """Empty spans ("here") widened to the code of their line, so that GitHub
    underlines something; the fix's edits keep their exact spans."""
    return finding.with_(
        location=_widen(finding.location, lines),
        related=tuple(Related(_widen(r.location, lines), r.message) for r in finding.related),
        chain=tuple(Related(_widen(r.location, lines), r.message) for r in finding.chain),
        library=tuple(Related(_widen(r.location, lines), r.message) for r in finding.library),
    )


def _widen(loc: VtLocation, lines: SourceLines) -> VtLocation:
    if loc.end != (loc.line, loc.column):
        return loc
    end = _code_end(lines(loc.path, loc.line))
    return replace(loc, end_column=end) if end > loc.column else loc


def _code_end(line: str) -> int:
    """1-based column after the line's last code character: trailing whitespace and
    a trailing comment excluded (found by the tokenizer, so `#` in a string stays)."""
    code = line.rstrip()
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.COMMENT:
                code = code[: token.start[1]].rstrip()
                break
    except (tokenize.TokenError, SyntaxError):
        pass  # a line of a multi-line construct: keep it whole
    return len(code) + 1


def _places(finding: Finding) -> list[VtLocation]:
    edits = finding.fix.edits if finding.fix else ()
    return [finding.location, *(r.location for r in (*finding.library, *finding.related, *finding.chain, *edits))]


def _related(finding: Finding) -> list[Related]:
    """relatedLocations: for a finding of a package's frame reported at the project line that reaches it,
    where Dynamo saw it and the inline chain to there; the mutation sites and guard lines of any finding."""
    chain = [Related(r.location, f"inline chain: {r.message}") for r in finding.chain] if finding.library else []
    return [*(Related(r.location, f"where Dynamo saw it: {r.message}" if r.message else "where Dynamo saw it")
              for r in finding.library), *finding.related, *chain]


def _outside(finding: Finding, paths: Paths) -> bool:
    return any(paths.outside(p.path) for p in _places(finding))


def _displays(findings: list[Finding], notes: list[Notification]) -> list[str]:
    """Every path the log names."""
    return [p.path for f in findings for p in _places(f)] + [n.location.path for n in notes if n.location]


# -- rules -----------------------------------------------------------------


def _rules_used(findings: Iterable[Finding], enabled: dict[str, type[Rule]]) -> dict[str, type[Rule]]:
    catalog = all_rules()
    kinds = {f.code: f for f in findings}
    return {code: enabled.get(code) or catalog.get(code) or _unknown_rule(kinds[code]) for code in sorted(kinds)}


def _unknown_rule(finding: Finding) -> type[Rule]:
    """A descriptor for a code no catalog knows (a runtime fact from a newer vtlint,
    say): the log must stay valid rather than lose the finding."""
    text = f"{finding.code}: a {finding.kind.value} finding this version of vtlint has no rule for."
    attrs = {"code": finding.code, "name": "unknown-rule", "kind": finding.kind, "level": finding.level,
             "summary": text, "what": text, "why": "See the finding's message.", "fix": "See the finding's message."}
    return type(f"Unknown{finding.code}", (Rule,), attrs)


def _driver(rules: dict[str, type[Rule]]) -> om.ToolComponent:
    return om.ToolComponent(
        name="vtlint",
        version=__version__,
        semantic_version=__version__,
        information_uri=INFORMATION_URI,
        rules=[_descriptor(rule) for rule in rules.values()] or None,
    )


def _clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _descriptor(rule: type[Rule]) -> om.ReportingDescriptor:
    tags = list(dict.fromkeys(["torch.compile", rule.kind.value, *rule.tags]))[:SHOWN_TAGS]
    return om.ReportingDescriptor(
        id=rule.code,
        name=rule.name,
        short_description=om.MultiformatMessageString(text=_clip(rule.summary)),
        full_description=om.MultiformatMessageString(text=_clip(f"{rule.what.strip()} {rule.why.strip()}")),
        help=om.MultiformatMessageString(text=rule.documentation(), markdown=_help_markdown(rule)),
        help_uri=rule.doc_url(),
        default_configuration=om.ReportingConfiguration(level=rule.level.value),
        properties={
            "tags": tags,
            "precision": rule.precision,
            "problem.severity": _PROBLEM_SEVERITY[rule.level],
        },
    )


def _help_markdown(rule: type[Rule]) -> str:
    """The rule's documentation; for graph-break rules also each registry entry's
    explanation and hints, linked to its page on the PyTorch graph-break site."""
    parts = [rule.documentation().rstrip("\n")]
    for gb_id in rule.gb_ids:
        entry = _registry().get(gb_id)
        if entry is None:
            continue
        parts += ["", f"### [{gb_id}]({gb_url(gb_id)}): {entry['Gb_type']}", "", entry["Explanation"].strip()]
        if entry["Hints"]:
            parts += ["", "Hints from the registry:", "", *[f"- {hint.strip()}" for hint in entry["Hints"]]]
    return "\n".join(parts) + "\n"


MAX_REGISTRY_BYTES = 16 * MiB  # torch 2.13's graph_break_registry.json is 250 KB


@cache
def _registry() -> dict[str, dict[str, Any]]:
    """The installed torch's graph-break registry, read as data (torch is never
    imported on the static path), bounded as every file vtlint reads; each id's last
    entry is its current wording. An entry not of the registry's shape is left out."""
    spec = find_spec("torch")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "_dynamo" / "graph_break_registry.json"
        if path.is_file():
            try:
                data = loads(read_bytes(path, MAX_REGISTRY_BYTES))
            except (OSError, ValueError):
                return {}
            entries = data.items() if isinstance(data, dict) else ()
            return {gb: versions[-1] for gb, versions in entries if isinstance(versions, list) and versions
                    and _registry_entry(versions[-1])}
    return {}


def _registry_entry(entry: Any) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("Gb_type"), str) and \
        isinstance(entry.get("Explanation"), str) and isinstance(entry.get("Hints"), list) and \
        all(isinstance(hint, str) for hint in entry["Hints"])


# -- results ---------------------------------------------------------------


def _region(loc: VtLocation) -> om.Region:
    start_line, start_col = max(1, loc.line), max(1, loc.column)
    end_line, end_col = max((start_line, start_col), (loc.end[0], max(1, loc.end[1])))
    return om.Region(start_line=start_line, start_column=start_col, end_line=end_line, end_column=end_col)


def _physical(loc: VtLocation, paths: Paths) -> om.PhysicalLocation:
    return om.PhysicalLocation(artifact_location=paths.artifact(loc.path), region=_region(loc))


def _link_label(loc: VtLocation) -> str:
    label = f"{posixpath.basename(loc.path)}:{loc.line}"
    return label.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _text(text: str, fallback: str | None = None) -> om.Message | None:
    """A message, or none at all (or the fallback) for a blank one: GitHub rejects empty strings."""
    text = text.strip() or (fallback or "")
    return om.Message(text=text) if text else None


def _message(finding: Finding) -> str:
    """The finding's message; each related location (not the inline chain's steps) is referenced by its id
    as an embedded link, which GitHub renders as a link to that place."""
    text = finding.message.strip() or f"{finding.code} {finding.kind.value}"
    linked = len(finding.library) + len(finding.related)
    if not linked:
        return text
    links = [
        f"{r.message.strip().rstrip('.')} [{_link_label(r.location)}]({i})".strip()
        for i, r in enumerate(_related(finding)[:linked], 1)
    ]
    return f"{text.rstrip('.')}. Related: {'; '.join(links)}."


def _result(finding: Finding, rule_index: int, fingerprint: str, paths: Paths) -> om.Result:
    return om.Result(
        rule_id=finding.code,
        rule_index=rule_index,
        level=finding.level.value,
        message=om.Message(text=_message(finding)),
        locations=[om.Location(physical_location=_physical(finding.location, paths))],
        related_locations=[
            om.Location(id=i, physical_location=_physical(r.location, paths), message=_text(r.message))
            for i, r in enumerate(_related(finding), 1)
        ] or None,
        code_flows=_code_flows(finding, paths),
        fixes=_fixes(finding, paths),
        partial_fingerprints={NAMESPACE: fingerprint},
        properties=_properties(finding),
    )


def _code_flows(finding: Finding, paths: Paths) -> list[om.CodeFlow] | None:
    """The inline chain: from the compiled entry, call by call, down to the finding."""
    if not finding.chain and not finding.library:
        return None
    steps = list(finding.chain)
    if finding.library:  # from the project line that reaches the package, down to where Dynamo saw it
        entry = (finding.entry or "").rpartition(":")[2] or "the compiled code"
        steps = [Related(finding.location, f"reaches the compiled `{entry}`"), *steps, finding.library[0]]
    elif steps[-1].location != finding.location:
        steps.append(Related(finding.location, finding.message))
    flow = [
        om.ThreadFlowLocation(
            location=om.Location(
                physical_location=_physical(step.location, paths), message=_text(step.message)
            ),
            nesting_level=depth,
            execution_order=depth + 1,
        )
        for depth, step in enumerate(steps)
    ]
    entry = finding.entry or "the compiled entry"
    return [om.CodeFlow(message=om.Message(text=f"Inlined from {entry}"), thread_flows=[om.ThreadFlow(locations=flow)])]


def _fixes(finding: Finding, paths: Paths) -> list[om.Fix] | None:
    """Only safe edits become SARIF fixes, which tools may apply unattended; advice
    stays in the result's properties."""
    fix = finding.fix
    if fix is None or not fix.edits or not fix.safe:
        return None
    by_file: dict[str, list[om.Replacement]] = {}
    for edit in sorted(fix.edits, key=lambda e: e.location):
        content = om.ArtifactContent(text=edit.replacement) if edit.replacement else None
        by_file.setdefault(edit.location.path, []).append(
            om.Replacement(deleted_region=_region(edit.location), inserted_content=content)
        )
    changes = [om.ArtifactChange(artifact_location=paths.artifact(p), replacements=r) for p, r in by_file.items()]
    return [om.Fix(description=_text(fix.description), artifact_changes=changes)]


def _properties(finding: Finding) -> dict[str, Any]:
    props: dict[str, Any] = {
        "kind": finding.kind.value,
        "source": finding.source,
        "variableTracker": finding.variable_tracker,
        "gbId": finding.gb_id,
        "guard": finding.guard,
        "entry": finding.entry,
        "entries": list(finding.entries) or None,
        "library": [{"uri": inside_install(r.location.path), "line": r.location.line, "function": r.message or None}
                    for r in finding.library] or None,
    }
    if finding.kind not in META_KINDS:  # a syntax error is a fact about the run, not a prediction
        props |= {"evidence": finding.evidence.value, "confidence": finding.confidence}
    if finding.fix is not None and not (finding.fix.safe and finding.fix.edits):
        props["suggestion"] = finding.fix.description
    if finding.runtime:
        props["runtime"] = finding.runtime
    return {key: value for key, value in props.items() if value not in (None, "")}


# -- invocation ------------------------------------------------------------


def _notifications(result: CheckResult) -> list[Notification]:
    missing = [Notification("io-error", f"{path}: no such file or directory", Level.ERROR) for path in result.missing]
    return [*missing, *result.notifications]


def _invocation(
    result: CheckResult, notes: list[Notification], paths: Paths, outside: bool, shard: str | None
) -> om.Invocation:
    properties: dict[str, Any] = {"filesAnalyzed": len(result.files), "entries": len(result.entries)}
    if shard:
        properties["shard"] = shard
    if result.torch_version:
        properties["torchVersion"] = result.torch_version
    if result.runtime:
        properties["runtime"] = result.runtime
    failed = bool(result.missing) or any(n.level is Level.ERROR for n in notes)
    return om.Invocation(
        execution_successful=not failed,
        tool_execution_notifications=[_notification(n, paths) for n in notes] or None,
        working_directory=om.ArtifactLocation(uri=paths.checkout_uri()) if outside else None,
        properties=properties,
    )


def _notification(note: Notification, paths: Paths) -> om.Notification:
    locations = None
    if note.location is not None:
        locations = [om.Location(physical_location=_physical(note.location, paths))]
    return om.Notification(
        message=_text(note.message, note.kind or "notification"),
        level=note.level.value,
        descriptor=om.ReportingDescriptorReference(id=note.kind) if note.kind else None,
        locations=locations,
    )
