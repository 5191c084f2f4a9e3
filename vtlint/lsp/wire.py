"""The language server's side of the wire, hardened against a client that sends junk.

pygls reads a frame only when its header is exactly `Content-Length: N\\r\\n`: a frame
without one glued the next frame's header to its body, and every later message was lost
while the server looked alive. A request whose params did not match the protocol's types
was never answered (the client waited forever), a body that was not a JSON object raised
inside the read loop, and an internal error was answered with the server's traceback in
its `data`. Here:

- a `Content-Length` header is found anywhere in a header line, in any case, so a broken
  frame costs that frame only; a length that is not a number or is over
  MAX_MESSAGE_BYTES drops the frame (its body is then read as junk until the next header);
- a body that is not JSON is answered with -32700 (id null), one that is not a JSON-RPC
  object with -32600, a request for an unknown method with -32601, one whose params do
  not fit with -32602 naming the method;
- no error sent to the client carries a traceback (it goes to the server's log);
- a request after `shutdown` is answered with -32600 instead of left hanging, one before
  `initialize` with -32002, a second `initialize` with -32600 (it would have reset the
  workspace); a change to a document that is not open is ignored.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Iterator
from typing import Any, Protocol
from urllib.parse import unquote

from lsprotocol import types
from lsprotocol.types import EXIT, INITIALIZE, ResponseError
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcMethodNotFound,
    JsonRpcParseError,
)
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

log = logging.getLogger("vtlint.lsp")

MAX_MESSAGE_BYTES = 64 << 20  # a frame longer than this is a broken header, not a message
_CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*([^\r\n]*)", re.IGNORECASE)


class Reader(Protocol):
    async def readline(self) -> bytes: ...

    async def readexactly(self, n: int) -> bytes: ...


def _valid_id(value: Any) -> int | str | None:
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


class VtlintProtocol(LanguageServerProtocol):
    """pygls' protocol with `receive` for one frame's body, and errors without tracebacks."""

    def receive(self, body: bytes) -> None:
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as exc:  # not UTF-8, not JSON, nested too deep
            log.warning("vtlint lsp: a message that is not JSON (%s)", type(exc).__name__)
            self._reply_error(None, JsonRpcParseError(f"Parse Error: the message is not JSON ({type(exc).__name__})"))
            return
        if not isinstance(data, dict) or data.get("jsonrpc") != self.VERSION:
            log.warning("vtlint lsp: a message that is not a JSON-RPC 2.0 object")
            if not isinstance(data, dict):
                self._reply_error(None, JsonRpcInvalidRequest("Invalid Request: not a JSON-RPC 2.0 object"))
            elif "id" in data and "method" in data:  # a request, answered; a notification never is
                self._reply_error(_valid_id(data["id"]), JsonRpcInvalidRequest("Invalid Request: not JSON-RPC 2.0"))
            return
        method = data.get("method")
        is_request = "id" in data and "method" in data
        if is_request and (_valid_id(data["id"]) is None or not isinstance(method, str)):
            self._reply_error(_valid_id(data["id"]), JsonRpcInvalidRequest("Invalid Request: bad id or method"))
            return
        if is_request and self._shutdown and method != EXIT:
            self._reply_error(data["id"], JsonRpcInvalidRequest("Invalid Request: the server is shutting down"))
            return
        if is_request and method == INITIALIZE and self._workspace is not None:
            # a second `initialize` would make a new workspace, forgetting every open document
            self._reply_error(data["id"], JsonRpcInvalidRequest("Invalid Request: the server is already initialized"))
            return
        if self._workspace is None and method not in (INITIALIZE, EXIT):
            if is_request:  # LSP's ServerNotInitialized; a notification before `initialize` is dropped
                self._reply_error(data["id"], JsonRpcException("Server Not Initialized", code=-32002))
            return
        if is_request and method not in self.fm.builtin_features and method not in self.fm.features:
            # before its params are checked (a notification goes on to pygls, which knows $/cancelRequest)
            self._reply_error(data["id"], JsonRpcMethodNotFound(f"Method Not Found: {method}"))
            return
        try:
            message = self.structure_message(data)
        except (JsonRpcException, RecursionError) as exc:
            log.warning("vtlint lsp: a message whose fields do not fit %r", method)
            if is_request:
                reason = exc.message if isinstance(exc, JsonRpcInvalidParams) else "Invalid Params"
                self._reply_error(data["id"], JsonRpcInvalidParams(f"{reason}: the params do not fit {method!r}"))
            return
        try:
            self.handle_message(message)
        except Exception:  # pygls answers handler errors itself; this is its own dispatch failing
            log.exception("vtlint lsp: a message could not be handled")
            if is_request:
                self._reply_error(data["id"], JsonRpcInvalidRequest(f"Invalid Request: {method!r} could not be handled"))

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Iterator[Any]:
        """pygls' own, for open documents only (a change to another raised KeyError)."""
        if unquote(params.text_document.uri) not in self.workspace.text_documents:
            log.warning("vtlint lsp: a change to %s, which is not open, is ignored", params.text_document.uri)
            return
        yield from super().lsp_text_document__did_change(params)

    def _reply_error(self, msg_id: int | str | None, error: JsonRpcException) -> None:
        self._send_response(msg_id, error=ResponseError(code=error.code, message=error.message))  # type: ignore[arg-type]

    def _send_response(self, msg_id: Any, result: Any | None = None, error: ResponseError | None = None) -> None:
        if error is not None and error.data is not None:
            # pygls puts the server's traceback in an internal error's data: it stays in the log
            error = ResponseError(code=error.code, message=error.message)
        super()._send_response(msg_id, result, error)


async def read_messages(reader: Reader, protocol: VtlintProtocol, stop: threading.Event) -> None:
    """Frames from `reader` to `protocol.receive` until end of input or `stop`."""
    length: int | None = None
    while not stop.is_set():
        line = await reader.readline()
        if not line:
            return
        if not line.strip():  # the blank line that ends the headers
            if length is None:
                continue
            wanted, length = length, None
            body = await reader.readexactly(wanted)
            if len(body) < wanted:
                return  # end of input within a frame
            protocol.receive(body)
            continue
        found = _CONTENT_LENGTH.search(line)  # search: a header glued to junk before it still counts
        if found:
            value = found.group(1).strip()
            length = int(value) if value.isdigit() and 0 < int(value) <= MAX_MESSAGE_BYTES else None
            if length is None:
                log.warning("vtlint lsp: a frame with Content-Length %r is dropped", value[:40])
