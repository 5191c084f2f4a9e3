"""Drive `vtlint lsp` over stdio with pytest-lsp's client, as an editor would."""

from __future__ import annotations

import asyncio
import sys
import textwrap
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

SERVER = [sys.executable, "-m", "vtlint", "lsp", "--stdio"]


class Session:
    """A started server with a workspace folder, and small helpers for tests."""

    def __init__(self, client: LanguageClient, root: Path) -> None:
        self.client = client
        self.root = root
        self.versions: dict[str, int] = {}

    def uri(self, rel: str) -> str:
        return (self.root / rel).as_uri()

    def write(self, rel: str, text: str) -> Path:
        target = self.root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text), encoding="utf-8")
        return target

    def open(self, rel: str, text: str | None = None) -> str:
        uri = self.uri(rel)
        body = textwrap.dedent(text) if text is not None else (self.root / rel).read_text(encoding="utf-8")
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", 1, body))
        )
        return uri

    def replace(self, uri: str, text: str) -> None:
        """A full-text change, as a client without incremental sync sends it."""
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=self.versions[uri], uri=uri),
                [types.TextDocumentContentChangeWholeDocument(textwrap.dedent(text))],
            )
        )

    def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        return list(self.client.diagnostics.get(uri, []))

    async def wait_diagnostics(self, uri: str, until: Callable[[list[types.Diagnostic]], bool] = lambda d: True,
                               timeout: float = 20.0) -> list[types.Diagnostic]:
        """The diagnostics of `uri` once they satisfy `until` (published for the current version)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if uri in self.client.diagnostics and self._current(uri) and until(self.diagnostics(uri)):
                return self.diagnostics(uri)
            await asyncio.sleep(0.02)
        raise AssertionError(f"no matching diagnostics for {uri} within {timeout}s: {self.diagnostics(uri)}")

    def _current(self, uri: str) -> bool:
        published = self.client.diagnostic_versions.get(uri) if hasattr(self.client, "diagnostic_versions") else None
        return published is None or published == self.versions.get(uri)

    async def command(self, name: str, *args: Any) -> Any:
        return await self.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=name, arguments=list(args))
        )


@asynccontextmanager
async def lsp_session(root: Path, settings: dict[str, Any] | None = None) -> AsyncIterator[Session]:
    versions: dict[str, int | None] = {}

    def on_diagnostics(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        versions[params.uri] = params.version

    features = {**DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: on_diagnostics}
    client = LanguageClient(converter_factory=default_converter)
    register_lsp_features(client, features)
    client.diagnostic_versions = versions  # type: ignore[attr-defined]

    await client.start_io(*SERVER)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), root.name)],
            initialization_options={"settings": settings or {}},
        )
    )
    try:
        yield Session(client, root)
    finally:
        await client.shutdown_session()
