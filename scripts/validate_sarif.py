"""Validate SARIF files three ways: the official SARIF 2.1.0 JSON schema
(python-jsonschema), GitHub code scanning's ingestion rules (vtlint's own
implementation, `vtlint.report.sarif_github`), and -- when it is installed -- the
SARIF Multitool's SARIF and GitHub rules (`make sarif-tools` installs it from npm).

usage: python scripts/validate_sarif.py [--schema FILE] [--multitool EXE|--no-multitool] FILE.sarif...
exit 0: all valid; 1: problems found."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SCHEMA = REPO / "tests" / "sarif" / "data" / "sarif-schema-2.1.0.json"
MULTITOOL_VERSION = "5.7.0"


def default_multitool() -> Path | None:
    """$SARIF_MULTITOOL, else where `make sarif-tools` puts it; None when absent."""
    if os.environ.get("SARIF_MULTITOOL"):
        return Path(os.environ["SARIF_MULTITOOL"])
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    exe = (cache_home / "sarif-tools" / f"multitool-{MULTITOOL_VERSION}" / "node_modules" / "@microsoft"
           / "sarif-multitool-linux" / "Sarif.Multitool")
    return exe if exe.is_file() and os.access(exe, os.X_OK) else None


@cache
def _validator(schema_path: Path) -> Any:
    from jsonschema import FormatChecker, validators

    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    cls = validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=FormatChecker())


def schema_problems(log: Any, schema_path: Path = SCHEMA) -> list[str]:
    errors = sorted(_validator(schema_path).iter_errors(log), key=lambda e: list(map(str, e.absolute_path)))
    return [f"schema: /{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in errors]


def github_rule_problems(log: Any) -> list[str]:
    sys.path.insert(0, str(REPO))
    from vtlint.report.sarif_github import github_problems

    return [f"github: {p}" for p in github_problems(log)]


def multitool_problems(
    paths: list[Path], multitool: Path, rule_kind: str = "Sarif;Ghas"
) -> dict[Path, tuple[list[str], list[str]]]:
    """(errors, notes) per file from one `Sarif.Multitool validate` (it starts slowly).
    It exits 0 even when it finds errors, and skips a file with an invalid enum
    silently, so run it after the schema check and read its output log. GitHub's
    rules are the kind `Ghas` in 5.7.0: an unknown kind such as `Gh` selects none."""
    found: dict[Path, tuple[list[str], list[str]]] = {path: ([], []) for path in paths}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "validation.sarif"
        # call the executable directly: npm's bin wrapper goes through a shell, which splits "Sarif;Ghas"
        proc = subprocess.run(
            [str(multitool), "validate", *map(str, paths), "-o", str(out), "--log", "ForceOverwrite",
             "--rule-kind", rule_kind],
            capture_output=True, text=True, timeout=300,
        )
        if proc.returncode != 0 or not out.exists():
            failure = f"multitool failed (exit {proc.returncode}): {(proc.stdout + proc.stderr)[-800:]}"
            return {path: ([failure], []) for path in paths}
        report = json.loads(out.read_text(encoding="utf-8-sig"))
    by_uri = {path.resolve().as_uri(): path for path in paths}
    for run in report.get("runs", []):
        rules = {r.get("id"): r for r in run.get("tool", {}).get("driver", {}).get("rules", [])}
        for result in run.get("results", []):
            rule = rules.get(result.get("ruleId"), {})
            level = result.get("level") or rule.get("defaultConfiguration", {}).get("level", "warning")
            message = result.get("message", {})
            text = message.get("text") or rule.get("messageStrings", {}).get(message.get("id"), {}).get("text", "")
            for i, arg in enumerate(message.get("arguments", [])):
                text = text.replace("{%d}" % i, arg)
            artifact = result.get("locations", [{}])[0].get("physicalLocation", {}).get("artifactLocation", {})
            uri = artifact.get("uri", "")
            errors, notes = found.get(by_uri.get(uri, paths[0]), found[paths[0]])
            line = f"multitool: {result.get('ruleId')} ({level}): {text[:300]}"
            (errors if level == "error" else notes).append(line)
    return found


def validate(path: Path, schema: Path = SCHEMA) -> list[str]:
    """Schema and GitHub-rule problems of one file."""
    try:
        log = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return [f"not JSON: {exc}"]
    return schema_problems(log, schema) + github_rule_problems(log)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", type=Path, default=SCHEMA)
    parser.add_argument("--multitool", type=Path, default=None)
    parser.add_argument("--no-multitool", action="store_true")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    multitool = None if args.no_multitool else (args.multitool or default_multitool())
    if multitool is None and not args.no_multitool:
        print("note: SARIF Multitool not installed (make sarif-tools); schema and GitHub rules only")
    found = {path: (validate(path, args.schema), []) for path in args.files}
    # the multitool skips files with an invalid enum silently: only give it schema-valid ones
    clean = [path for path, (problems, _) in found.items() if not problems]
    if multitool is not None and clean:
        found |= multitool_problems(clean, multitool)
    failed = 0
    for path, (problems, notes) in found.items():
        for note in notes:
            print(f"  note {path}: {note}")
        print(f"{'FAIL' if problems else 'ok  '} {path}")
        for problem in problems:
            print(f"    {problem}")
        failed += bool(problems)
    print(f"sarif: {len(args.files) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
