"""The entry scan of an editor's buffer, again after an edit: each top-level
statement's share of the last scan is reused when the statement is the very same
node (the chunked parse keeps the ones an edit did not touch), the module's names
are the same and the module-level bindings it read are the same nodes; its lines
move with the statement. Only the statements an edit touched are scanned again."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import libcst as cst

from vtlint.analyzer.entries import EntrySpec, ModuleFacts, Site, _Scanner
from vtlint.analyzer.index import Parsed
from vtlint.analyzer.traverse import visit


class _ModuleBindings(dict[str, cst.BaseExpression]):
    """The scan's module-level bindings (name -> the expression bound), noting what the
    statement being scanned reads of the earlier statements' and what it binds."""

    def __init__(self) -> None:
        super().__init__()
        self.read: dict[str, cst.BaseExpression | None] = {}
        self.bound: dict[str, cst.BaseExpression] = {}

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        found = super().get(name)
        if name not in self.bound:
            self.read.setdefault(name, found)
        return found if found is not None else default

    def __setitem__(self, name: str, value: cst.BaseExpression) -> None:
        super().__setitem__(name, value)
        self.bound[name] = value


@dataclass
class _Share:
    line: int  # where the statement started when it was scanned
    read: dict[str, cst.BaseExpression | None]
    bound: dict[str, cst.BaseExpression]
    facts: ModuleFacts


@dataclass
class ScanMemo:
    """One file's last scan, statement by statement."""

    names: tuple[Any, ...] = ()  # the module's names the scan resolves through
    shares: dict[cst.BaseStatement, _Share] = field(default_factory=dict)


def scan_reusing(parsed: Parsed, with_entries: bool, memo: ScanMemo) -> ModuleFacts:
    """`entries.scan`'s facts, in the same order, scanning only the statements whose share
    of the last scan cannot be reused."""
    scanner = _Scanner(parsed, with_entries)
    bindings = _ModuleBindings()
    scanner.local_bindings[0] = bindings
    names = _names_of(parsed)
    if names != memo.names:
        memo.names, memo.shares = names, {}
    shares: dict[cst.BaseStatement, _Share] = {}
    total = ModuleFacts()
    for stmt in parsed.module.body:
        line = parsed.line(stmt)
        share = memo.shares.get(stmt)
        if share is not None and all(dict.get(bindings, n) is v for n, v in share.read.items()):
            dict.update(bindings, share.bound)
        else:
            bindings.read, bindings.bound = {}, {}
            scanner.facts = ModuleFacts()
            visit(stmt, scanner)
            share = _Share(line, bindings.read, bindings.bound, scanner.facts)
        shares[stmt] = share
        _add(total, share.facts, line - share.line)
    memo.shares = shares
    return total


def _names_of(parsed: Parsed) -> tuple[Any, ...]:
    s, module = parsed.summary, parsed.module
    return (s.display, s.module, tuple(s.imports.items()), tuple(s.functions), tuple(s.classes), tuple(s.globals),
            tuple(sorted(s.reassigned)), module.default_indent, module.default_newline)


def _add(total: ModuleFacts, share: ModuleFacts, moved: int) -> None:
    """A statement's facts appended to the module's: copies (the walks fill an entry's calls),
    `moved` lines down."""
    total.entries += [_spec(spec, moved) for spec in share.entries]
    total.mutations += [replace(m, site=_site(m.site, moved)) for m in share.mutations]
    for callee, sites in share.calls.items():
        total.calls.setdefault(callee, []).extend(_site(site, moved) for site in sites)
    total.config.update(share.config)
    total.marks += [(kind, arg, line + moved) for kind, arg, line in share.marks]
    total.notes += [(line + moved, note) for line, note in share.notes]
    total.module_compiles += [line + moved for line in share.module_compiles]


def _site(site: Site, moved: int) -> Site:
    return replace(site, line=site.line + moved, args=list(site.args), kwargs=dict(site.kwargs),
                   globals=dict(site.globals), cells=dict(site.cells))


def _spec(spec: EntrySpec, moved: int) -> EntrySpec:
    return replace(spec, line=spec.line + moved, options=dict(spec.options), callables=set(spec.callables),
                   calls=[_site(c, moved) for c in spec.calls], outer_calls=[_site(c, moved) for c in spec.outer_calls])

