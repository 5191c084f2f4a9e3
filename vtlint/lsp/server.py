"""`vtlint lsp`: the language server behind the VS Code extension (pygls, stdio).

Diagnostics come from the static pass only (`run_check` with the editor's unsaved
buffers as overrides): it never imports torch or the user's code, so a save never
waits for torch. Each project keeps its files' parsed top-level statements warm
between lints, so a save re-parses only the statements it changed. Running the user's harness (`vtlint.confirmAtRuntime`) is opt-in
and refused unless the client says the workspace is trusted.

A lint runs under the analyzer's budgets and can be cancelled: the next edit of a file
it covers, or another file's lint (which goes first; the cancelled one runs again after
it), ends it at its next checkpoint, so one slow file never holds the others' diagnostics
back; `exit` ends the process at once, whatever runs."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from vtlint import __version__
from vtlint.analyzer.budget import Cancelled, cancellable
from vtlint.check import CheckResult, run_check
from vtlint.findings import Finding, Notification
from vtlint.lsp import convert, runtime_bridge
from vtlint.lsp.project import Lint, Project
from vtlint.lsp.settings import ConfigProblem, EditorSettings, resolve_config
from vtlint.lsp.wire import VtlintProtocol, read_messages
from vtlint.rules.registry import get_rule

DEBOUNCE_S = 0.3
HOVER_WAIT_S = 5.0  # a hover on a file whose lint is under way waits this long for its findings
CONFIRM_COMMAND = "vtlint.confirmAtRuntime"
STATUS_COMMAND = "vtlint.serverStatus"
log = logging.getLogger("vtlint.lsp")


class VtlintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("vtlint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=VtlintProtocol)
        self.settings = EditorSettings()
        self.projects: dict[Path, Project] = {}
        self.findings: dict[str, list[tuple[Finding, types.Range]]] = {}  # uri -> what was published
        self.config_problems: dict[str, Path] = {}  # uri of a broken pyproject.toml -> its folder
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.last_lint_s = 0.0
        self.lint_count = 0
        self.scan_count = 0  # whole-project scans (first lint of a project, files came or went)
        self.linted: dict[str, int | None] = {}  # uri -> the buffer version last published

    def serve_stdio(self) -> None:
        """pygls' stdio loop, reading frames with `wire.read_messages` (a junk frame costs
        that frame only). `exit` ends the process with LSP's code: 0 after `shutdown`, else 1."""
        self._stop_event = threading.Event()
        reader = StdinAsyncReader(sys.stdin.buffer, self.thread_pool)
        self.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
        assert isinstance(self.protocol, VtlintProtocol)
        try:
            asyncio.run(read_messages(reader, self.protocol, self._stop_event))
        except BrokenPipeError:
            log.error("vtlint lsp: the client is gone")
        except KeyboardInterrupt:
            pass
        finally:
            self.shutdown()

    # -- documents and projects ------------------------------------------------

    def folder_of(self, path: Path) -> Path:
        """The deepest workspace folder holding `path`, else the file's own folder."""
        best: Path | None = None
        for folder in self.workspace.folders.values():
            root = Path(to_fs_path(folder.uri) or "").resolve()
            if path.is_relative_to(root) and (best is None or len(root.parts) > len(best.parts)):
                best = root
        return best or path.parent

    def project_for(self, path: Path) -> tuple[Project, ConfigProblem | None]:
        resolved = resolve_config(path, self.folder_of(path), self.settings)
        root = resolved.config.root.resolve()
        project = self.projects.get(root)
        if project is None:
            project = self.projects[root] = Project(root, resolved.config)
        else:
            project.config = resolved.config
        return project, resolved.problem

    def owns(self, project: Project, path: Path) -> bool:
        """Whether `path` belongs to `project` and not to a nested one with its own config."""
        if not path.is_relative_to(project.root):
            return False
        return resolve_config(path, self.folder_of(path), self.settings).config.root.resolve() == project.root

    def open_python(self) -> dict[Path, str]:
        """Absolute path -> uri of every open Python buffer."""
        opened = {}
        for uri, doc in self.workspace.text_documents.items():
            if uri.startswith("file:") and (doc.language_id == "python" or uri.endswith((".py", ".pyi"))):
                opened[Path(to_fs_path(uri) or "").resolve()] = uri
        return opened

    # -- linting ---------------------------------------------------------------

    def schedule(self, uri: str, delay: float = DEBOUNCE_S, *, preempt: bool = True) -> None:
        """Debounce: the lint for `uri` runs once typing pauses for `delay` seconds."""
        handle = self.pending.pop(uri, None)
        if handle:
            handle.cancel()
        loop = asyncio.get_running_loop()
        self.pending[uri] = loop.call_later(delay, lambda: loop.create_task(self.lint(uri, preempt=preempt)))

    async def lint(self, uri: str, *, preempt: bool = True) -> None:
        """Lint `uri` with the files related to it. `preempt`: a lint of the project under way is
        cancelled (and runs again after this one); a lint run again that way does not preempt."""
        self.pending.pop(uri, None)
        path = Path(to_fs_path(uri) or "").resolve()
        if path.exists() and not path.is_file():  # a buffer whose file is a device (a symlink to /dev/zero)
            self._not_a_file(uri)
            return
        if not preempt and uri in self.open_python().values() and \
                self.linted.get(uri) == self.workspace.get_text_document(uri).version:
            return  # linted meanwhile
        project, problem = self.project_for(path)
        self.publish_config_problem(path, problem)
        if not self.settings.enable:
            self.publish(uri, [], project)
            return
        running = project.running
        if preempt and running is not None and running.trigger != path:
            running.requeue = True
            running.cancel.set()
        async with project.lock:
            await self._lint_project(project, path)

    def cancel(self, path: Path) -> None:
        """An edit of `path`: a lint under way that covers it is about older text (one asked for by
        another file runs again, with the new text)."""
        for project in self.projects.values():
            running = project.running
            if running is not None and path in running.covers:
                running.requeue = running.trigger != path
                running.cancel.set()

    def cancel_all(self) -> None:
        for project in self.projects.values():
            if project.running is not None:
                project.running.cancel.set()

    async def _lint_project(self, project: Project, trigger: Path, *, scan: bool = False) -> None:
        """Lint the open files of `project` with the files their entries reach. The
        first lint of a project is followed by a scan of the whole project in the
        background, which learns which entries inline which files and republishes."""
        opened = {p: u for p, u in self.open_python().items() if p == trigger or self.owns(project, p)}
        docs = {p: self.workspace.get_text_document(u) for p, u in opened.items()}
        buffers = {p: doc.source for p, doc in docs.items()}
        versions = {p: doc.version for p, doc in docs.items()}  # what is linted: changes may come meanwhile
        too_big = {p for p, text in buffers.items() if len(text) > self.settings.max_file_chars}
        overrides = {p: t for p, t in buffers.items() if p not in too_big}
        if not scan:  # the open files the trigger's findings may change: the others keep theirs
            related = project.related_to({project.source_file(trigger).display})
            opened = {p: u for p, u in opened.items() if p == trigger or project.source_file(p).display in related}
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        open_files = {project.source_file(p) for p in opened if p in overrides}
        if scan:
            project.scanned = True
            everything = await loop.run_in_executor(None, project.project_files)
            if everything is None:
                log.info("%s: too many files for a whole-project scan from the editor", project.root)
                return
            files = everything
        else:
            displays = project.related_to({f.display for f in open_files})
            files = [project.source_file(project.root / d) for d in sorted(displays)]
        files = sorted({*files, *open_files}, key=lambda f: f.display)  # unsaved new files too
        files = [f for f in files if f.path not in too_big and self._within_budget(f.path, overrides)]
        lint = project.running = Lint(trigger, covers={*opened, *(f.path for f in files)})
        try:
            result = await loop.run_in_executor(None, self._check, project, files, overrides, lint)
        except Exception as exc:  # an analyzer fault must not take the server down
            log.exception("analysis failed")
            self.window_log_message(types.LogMessageParams(types.MessageType.Error, f"vtlint: analysis failed: {exc!r}"))
            return
        finally:
            project.running = None
        if result is None:  # cancelled: a newer lint publishes instead
            if scan:
                project.scanned = False  # learnt again after the next lint
            elif lint.requeue and opened.get(trigger):
                self.schedule(opened[trigger], delay=0, preempt=False)
            return
        if scan:
            self.scan_count += 1
        else:
            self.last_lint_s = time.perf_counter() - started
            self.lint_count += 1
        project.learn(result, {f.display for f in files})
        linted = {project.source_file(p).display: text for p, text in buffers.items()}
        still_open = set(self.open_python().values())
        for path, uri in opened.items():
            if uri not in still_open:
                continue  # closed during the analysis: its diagnostics were cleared then
            display = project.source_file(path).display
            if path in too_big:
                self.publish(uri, [], project, extra=[self._budget_diagnostic(len(buffers[path]))],
                             linted=(linted, versions[path]))
            else:
                self.publish(uri, [f for f in result.findings if f.location.path == display], project,
                             notes=[n for n in result.notifications if n.location and n.location.path == display],
                             linted=(linted, versions[path]))
        if not project.scanned and not project.scanning:
            project.scanning = True
            loop.create_task(self._scan(project, trigger))

    async def _scan(self, project: Project, trigger: Path) -> None:
        try:
            async with project.lock:
                if not project.scanned:
                    await self._lint_project(project, trigger, scan=True)
        finally:
            project.scanning = False

    def _within_budget(self, path: Path, overrides: dict[Path, str]) -> bool:
        if path in overrides:
            return True
        try:
            return path.stat().st_size <= self.settings.max_file_chars
        except OSError:
            return True  # the analyzer reports the unreadable file itself

    def _check(self, project: Project, files: list[Any], overrides: dict[Path, str], lint: Lint) -> CheckResult | None:
        """The analysis, in a worker thread; None when the lint was cancelled before it ended."""
        try:
            with cancellable(lint.cancel):
                return run_check([project.root], project.config, files=files, overrides=overrides,
                                 runtime=project.runtime, chunks=project.chunks)
        except Cancelled:
            return None

    def _not_a_file(self, uri: str) -> None:
        self.linted[uri] = self.workspace.get_text_document(uri).version
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[types.Diagnostic(
            range=types.Range(types.Position(0, 0), types.Position(0, 1)),
            message="vtlint skipped this file: it is not a regular file (a device, a pipe or a folder)",
            severity=types.DiagnosticSeverity.Information, source=convert.SOURCE)]))

    async def settled(self, uri: str) -> None:
        """Wait, up to HOVER_WAIT_S, for a lint under way or pending to publish `uri`'s current text:
        a hover right after opening a file (or typing) answers from its findings, not from none."""
        deadline = time.monotonic() + HOVER_WAIT_S
        while time.monotonic() < deadline and uri in self.open_python().values():
            if self.linted.get(uri) == self.workspace.get_text_document(uri).version:
                return
            if uri not in self.pending and not any(p.lock.locked() for p in self.projects.values()):
                return  # nothing under way would publish it
            await asyncio.sleep(0.02)

    def _budget_diagnostic(self, chars: int) -> types.Diagnostic:
        return types.Diagnostic(
            range=types.Range(types.Position(0, 0), types.Position(0, 1)),
            message=(f"vtlint skipped this file: {chars:,} characters is over the editor's analysis budget of "
                     f"{self.settings.max_file_chars:,} (run `vtlint check` on it from a terminal)"),
            severity=types.DiagnosticSeverity.Information,
            source=convert.SOURCE,
        )

    def publish(self, uri: str, findings: list[Finding], project: Project, *,
                notes: list[Notification] = (), extra: list[types.Diagnostic] = (),  # type: ignore[assignment]
                linted: tuple[dict[str, str], int | None] | None = None) -> None:
        """`linted`: the buffers the findings were computed from and the version of `uri`
        among them. A change that came during the analysis is not what they describe: they
        are published with the version they belong to (the lint it scheduled follows)."""
        if linted is None:
            buffers = {project.source_file(p).display: self.workspace.get_text_document(u).source
                       for p, u in self.open_python().items()}
            version = self.workspace.get_text_document(uri).version
        else:
            buffers, version = linted
        findings = convert.grouped(findings)  # a package's constants reached at one line: one, listed in its hover
        lines_of = convert.LinesOf(project.root, buffers, self.workspace.position_codec)
        diagnostics = [convert.to_diagnostic(f, get_rule(f.code), project.root, lines_of, self.settings.severity)
                       for f in findings]
        diagnostics += [self._note_diagnostic(n, lines_of) for n in notes]
        self.findings[uri] = [(f, d.range) for f, d in zip(findings, diagnostics)]
        self.linted[uri] = version
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[*diagnostics, *extra])
        )

    @staticmethod
    def _note_diagnostic(note: Notification, lines_of: convert.LinesOf) -> types.Diagnostic:
        assert note.location is not None
        severity = convert.SEVERITY_NAMES.get(note.level.value, types.DiagnosticSeverity.Information)
        return types.Diagnostic(range=lines_of.range(note.location), message=f"{note.kind}: {note.message}",
                                severity=severity, source=convert.SOURCE)

    def publish_config_problem(self, linted: Path, problem: ConfigProblem | None) -> None:
        """A broken pyproject.toml is flagged on that file; it is cleared once a file
        below it lints without the problem (another project's problems stay)."""
        for uri, folder in list(self.config_problems.items()):
            if linted.is_relative_to(folder) and (problem is None or from_fs_path(str(problem.path)) != uri):
                del self.config_problems[uri]
                self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        if problem is not None:
            uri = from_fs_path(str(problem.path)) or ""
            self.config_problems[uri] = problem.path.parent
            rng = types.Range(types.Position(problem.line, 0), types.Position(problem.line, 10_000))
            diagnostic = types.Diagnostic(rng, f"vtlint: {problem.message}; using the default configuration",
                                          severity=types.DiagnosticSeverity.Error, source=convert.SOURCE)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[diagnostic]))

    def relint_all(self) -> None:
        for uri in self.open_python().values():
            self.schedule(uri, delay=0)


server = VtlintServer()


@server.feature(types.INITIALIZE)
def initialize(ls: VtlintServer, params: types.InitializeParams) -> None:
    ls.settings = EditorSettings.from_client(params.initialization_options)


@server.feature(types.INITIALIZED)
def initialized(ls: VtlintServer, params: types.InitializedParams) -> None:
    _say_settings_problems(ls)  # a message may be shown once `initialize` is answered


def _say_settings_problems(ls: VtlintServer) -> None:
    if ls.settings.problems:
        said = "; ".join(ls.settings.problems)
        ls.window_show_message(types.ShowMessageParams(
            types.MessageType.Warning, f"vtlint: settings ignored, their defaults used: {said}"))


@server.feature(types.EXIT)
def on_exit(ls: VtlintServer, *args: Any) -> None:
    """The process ends now, with LSP's code (0 after `shutdown`, else 1). A lint under way is
    cancelled, not waited for: one inside a long native parse would hold the exit up, and the
    event loop's teardown would log the tasks it cancels as errors."""
    ls.cancel_all()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # the client closed it
            pass
    os._exit(0 if ls.protocol._shutdown else 1)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: VtlintServer, params: types.DidOpenTextDocumentParams) -> None:
    uri = params.text_document.uri
    if _on_disk(uri) and (uri.endswith((".py", ".pyi")) or params.text_document.language_id == "python"):
        await ls.lint(uri)


def _on_disk(uri: str) -> bool:
    """A `file:` URI: the analyzer reads projects from disk (an untitled buffer or another
    scheme has no project; its path would be the server's working directory)."""
    return uri.startswith("file:") and bool(to_fs_path(uri))


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: VtlintServer, params: types.DidChangeTextDocumentParams) -> None:
    if params.text_document.uri in ls.open_python().values():
        ls.cancel(Path(to_fs_path(params.text_document.uri) or "").resolve())
        ls.schedule(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: VtlintServer, params: types.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    if uri.endswith("pyproject.toml"):
        ls.relint_all()
        return
    if uri not in ls.open_python().values():
        return  # not an open Python buffer: nothing of it was linted
    pending = ls.pending.pop(uri, None)
    if pending:
        pending.cancel()
    if pending or ls.linted.get(uri) != ls.workspace.get_text_document(uri).version:
        await ls.lint(uri)  # else the buffer's diagnostics are already current: a save adds nothing
    if ls.settings.runtime_on_save and ls.settings.trusted and runtime_bridge.available():
        await confirm_at_runtime(ls, uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: VtlintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.findings.pop(uri, None)
    ls.linted.pop(uri, None)
    if not _on_disk(uri):
        return
    path = Path(to_fs_path(uri) or "").resolve()
    if path.exists() and not path.is_file():
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        return
    project, _ = ls.project_for(path)
    project.chunks.forget(project.source_file(path).display)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched(ls: VtlintServer, params: types.DidChangeWatchedFilesParams) -> None:
    """A pyproject.toml changed, or a helper file not open in the editor was saved:
    re-lint the open files whose entries inline it."""
    opened = ls.open_python()
    for change in params.changes:
        path = Path(to_fs_path(change.uri) or "").resolve()
        if path.name == "pyproject.toml":
            ls.relint_all()
            return
        if path in opened:
            continue
        for project in ls.projects.values():
            if path.is_relative_to(project.root) and (
                project.depends_on(project.source_file(path).display) or change.type != types.FileChangeType.Changed
            ):
                project.scanned = False  # files came or went, or a helper changed: learn again
                ls.relint_all()
                return


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: VtlintServer, params: types.DidChangeConfigurationParams) -> None:
    if isinstance(params.settings, dict) and params.settings:
        ls.settings = EditorSettings.from_client(params.settings)
        _say_settings_problems(ls)
        ls.relint_all()


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: VtlintServer, params: types.HoverParams) -> types.Hover | None:
    await ls.settled(params.text_document.uri)
    if params.text_document.uri not in ls.open_python().values():
        return None  # closed meanwhile
    hits = [(f, r) for f, r in ls.findings.get(params.text_document.uri, []) if convert.contains(r, params.position)]
    if not hits:
        return None
    word = ls.workspace.get_text_document(params.text_document.uri).word_at_position(params.position)
    hits.sort(key=lambda hit: not convert.names(hit[0], word))  # the finding about the hovered name first
    text = "\n\n---\n\n".join(convert.hover_markdown(f, get_rule(f.code)) for f, _ in hits)
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text), range=hits[0][1])


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
)
def code_action(ls: VtlintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    if uri not in ls.findings:
        return []  # nothing published for it (not open, or not linted yet): no action to offer
    path = Path(to_fs_path(uri) or "").resolve()
    project, _ = ls.project_for(path)
    buffers = {project.source_file(path).display: ls.workspace.get_text_document(uri).source}
    lines_of = convert.LinesOf(project.root, buffers, ls.workspace.position_codec)
    actions: list[types.CodeAction] = []
    for finding, diagnostic in _findings_in(ls, params):
        for action in (convert.fix_action(finding, project.root, lines_of, diagnostic),
                       convert.noqa_action(finding, uri, lines_of, diagnostic)):
            if action is not None and action.title not in {a.title for a in actions}:
                actions.append(action)
    return actions


def _findings_in(ls: VtlintServer, params: types.CodeActionParams) -> list[tuple[Finding, types.Diagnostic | None]]:
    """The published findings the client asks about: those of its diagnostics, else
    (a code-action request without diagnostics) those on the requested lines."""
    published = ls.findings.get(params.text_document.uri, [])
    if params.context.diagnostics:
        return [(f, d) for d in params.context.diagnostics if d.source == convert.SOURCE
                for f, r in published if f.code == d.code and r == d.range and convert.message(f) == d.message]
    first, last = params.range.start.line, params.range.end.line
    return [(f, None) for f, r in published if first <= r.start.line <= last]


@server.command(CONFIRM_COMMAND)
async def confirm_at_runtime(ls: VtlintServer, *args: Any) -> dict[str, Any]:
    """Run the configured harness under Dynamo's structured trace and merge what it
    saw into the diagnostics (confirmed / refuted / runtime-only)."""
    if not ls.settings.trusted:
        return _refuse(ls, "vtlint: runtime confirmation runs your harness; it is disabled in an untrusted workspace.")
    if not runtime_bridge.available():
        return _refuse(ls, "vtlint: the runtime step is unavailable in this vtlint installation.")
    uris = [a for a in args if isinstance(a, str)] or list(ls.open_python().values())
    if not uris:
        return _refuse(ls, "vtlint: open a Python file of the project to confirm at runtime.")
    project, _ = ls.project_for(Path(to_fs_path(uris[0]) or "").resolve())
    if not project.config.runtime.command:
        return _refuse(ls, "vtlint: no harness configured: set [tool.vtlint.runtime] command or vtlint.runtime.command.")
    ls.window_log_message(types.LogMessageParams(types.MessageType.Info, f"vtlint: running `{project.config.runtime.command}`"))
    loop = asyncio.get_running_loop()
    try:
        project.runtime = await loop.run_in_executor(None, runtime_bridge.run, project.config)
    except Exception as exc:  # a harness that cannot start is reported, not fatal
        return _refuse(ls, f"vtlint: runtime confirmation failed: {exc}")
    async with project.lock:
        await ls._lint_project(project, Path(to_fs_path(uris[0]) or "").resolve())
    summary = runtime_bridge.summary(project.runtime)
    ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, f"vtlint: runtime run finished: {summary['text']}"))
    return {"ok": True, **summary}


@server.command(STATUS_COMMAND)
def server_status(ls: VtlintServer, *args: Any) -> dict[str, Any]:
    """What the status bar shows, and what tests check: the server stays torch-free."""
    torch_imported = "torch" in sys.modules  # before anything below may import the runtime
    return {
        "version": __version__,
        "projects": [str(p) for p in ls.projects],
        "last_lint_ms": round(ls.last_lint_s * 1000, 1),
        "lints": ls.lint_count,
        "scans": ls.scan_count,
        "torch_imported": torch_imported,
        "runtime_available": runtime_bridge.available(),
        "trusted": ls.settings.trusted,
    }


def _refuse(ls: VtlintServer, message: str) -> dict[str, Any]:
    ls.window_show_message(types.ShowMessageParams(types.MessageType.Warning, message))
    return {"ok": False, "text": message}


def serve() -> None:
    # A long-lived process that parses whole modules: LibCST allocates hundreds of
    # thousands of short-lived nodes per lint, and the default collector thresholds
    # make it rescan the server's own state over and over (~30% of a 2,000-line lint).
    gc.set_threshold(100_000, 50, 100)
    gc.freeze()  # what is loaded by now lives as long as the server
    server.serve_stdio()
