"""Fuzzing the language server (issue 16): `vtlint lsp` as a real process on its stdio
wire, fed seeded random edit sequences and malformed JSON-RPC. Whatever it gets, the
server must not exit, must answer every request it can identify (a result or an error,
never a traceback in the error), must go on answering afterwards, and must still lint
correctly: a document edited at random is linted as the same text opened fresh.

Default: 6 edit sequences (30 random edits, then 10 in range from a known text), 45
fixed malformed frames and messages, 60 mutated messages; VTLINT_FUZZ_EXAMPLES=N scales
the random ones (N/10 sequences, N mutated messages). About 10 s on 2 cores."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

SCALE = int(os.environ.get("VTLINT_FUZZ_EXAMPLES", "0"))
SEQUENCES = max(6, SCALE // 10)
EDITS = 30
MUTATED = SCALE or 60
EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.py"))
ANSWER_S = 20.0  # a request unanswered this long is a hang (the loaded 2-core CI machine included)
BROKEN = "def f(x:\n    return x\n"


class Wire:
    """`vtlint lsp` over stdio, spoken byte by byte: frames it reads, raw bytes it is sent."""

    def __init__(self, root: Path, cwd: Path) -> None:
        self.root = root
        self.stderr = (cwd / "server.stderr").open("wb")
        self.stderr_path = cwd / "server.stderr"
        self.proc = subprocess.Popen([sys.executable, "-m", "vtlint", "lsp"], cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr)
        self.responses: dict[Any, dict] = {}
        self.null_id: list[dict] = []  # errors answering what had no usable id
        self.diagnostics: dict[str, dict] = {}  # uri -> the last publishDiagnostics params
        self.garbage: list[bytes] = []  # anything on stdout that is not a frame
        self.cv = threading.Condition()
        self.eof = False
        self.ids = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    with self.cv:
                        self.eof = True
                        self.cv.notify_all()
                    return
                if not line.strip():
                    break
                found = re.fullmatch(rb"Content-Length: (\d+)\r\n", line)
                if found:
                    length = int(found.group(1))
                elif not line.startswith(b"Content-Type: "):
                    self.garbage.append(line)
            if length is None:
                self.garbage.append(b"<frame without Content-Length>")
                continue
            msg = json.loads(out.read(length))
            with self.cv:
                if "method" not in msg and "id" in msg and msg["id"] is not None:
                    self.responses[msg["id"]] = msg
                elif "method" not in msg:
                    self.null_id.append(msg)
                elif msg["method"] == "textDocument/publishDiagnostics":
                    self.diagnostics[msg["params"]["uri"]] = msg["params"]
                self.cv.notify_all()

    # -- sending ---------------------------------------------------------------

    def raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def frame(self, body: bytes) -> None:
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def send(self, message: Any) -> None:
        self.frame(json.dumps(message).encode())

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def new_id(self) -> int:
        self.ids += 1
        return self.ids

    def request(self, method: str, params: Any = None) -> dict:
        msg_id = self.new_id()
        message = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.answer(msg_id)

    def answer(self, msg_id: Any, timeout: float = ANSWER_S) -> dict:
        """The response to `msg_id`; fails on a hang, an exit or a traceback in an error."""
        deadline = time.monotonic() + timeout
        with self.cv:
            while msg_id not in self.responses:
                assert not self.eof, f"the server exited (code {self.proc.poll()}): {self.stderr_tail()}"
                assert time.monotonic() < deadline, f"no answer to request {msg_id} within {timeout:.0f} s"
                self.cv.wait(0.05)
            response = self.responses.pop(msg_id)
        no_traceback(response)
        return response

    def alive(self) -> dict:
        """The server answers a command, and has written nothing but frames."""
        status = self.request("workspace/executeCommand", {"command": "vtlint.serverStatus", "arguments": []})
        assert "result" in status and status["result"]["torch_imported"] is False, status
        assert self.proc.poll() is None
        assert not self.garbage, self.garbage[:3]
        return status["result"]

    # -- documents -------------------------------------------------------------

    def uri(self, name: str) -> str:
        return (self.root / name).as_uri()

    def open(self, name: str, text: str, version: int = 1) -> str:
        uri = self.uri(name)
        self.notify("textDocument/didOpen",
                    {"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}})
        return uri

    def change(self, uri: str, version: int, changes: list[dict]) -> None:
        self.notify("textDocument/didChange",
                    {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes})

    def published(self, uri: str, version: int, timeout: float = ANSWER_S) -> list[dict]:
        """The diagnostics published for `uri` at `version`."""
        deadline = time.monotonic() + timeout
        with self.cv:
            while self.diagnostics.get(uri, {}).get("version") != version:
                assert not self.eof, f"the server exited: {self.stderr_tail()}"
                assert time.monotonic() < deadline, f"no diagnostics for {uri} v{version}: {self.diagnostics.get(uri)}"
                self.cv.wait(0.05)
            return self.diagnostics[uri]["diagnostics"]

    def stderr_tail(self) -> str:
        return self.stderr_path.read_text(errors="replace")[-3000:]


def no_traceback(message: dict) -> None:
    error = message.get("error")
    if error is None:
        return
    assert isinstance(error.get("code"), int) and isinstance(error.get("message"), str), error
    text = json.dumps(error)
    assert "Traceback" not in text and 'File \\"' not in text and "traceback" not in text, error


def _folders(tmp_path: Path) -> tuple[Path, Path]:
    """The workspace, and the server's working directory beside it (never linted)."""
    (tmp_path / "ws").mkdir()
    (tmp_path / "cwd").mkdir()
    return tmp_path / "ws", tmp_path / "cwd"


@pytest.fixture
def wire(tmp_path: Path):
    """An initialized server in a throw-away workspace; it must end with `shutdown` + `exit`, code 0."""
    ws, cwd = _folders(tmp_path)
    w = Wire(ws, cwd)
    try:
        init = w.request("initialize", {
            "processId": None, "rootUri": ws.as_uri(), "capabilities": {},
            "workspaceFolders": [{"uri": ws.as_uri(), "name": "ws"}],
            "initializationOptions": {"settings": {}},
        })
        assert "result" in init, init
        w.notify("initialized", {})
        yield w
        assert w.request("shutdown") == {"jsonrpc": "2.0", "id": w.ids, "result": None}
        w.notify("exit", None)
        assert w.proc.wait(timeout=20) == 0, w.stderr_tail()
    finally:
        if w.proc.poll() is None:
            w.proc.kill()
            w.proc.wait()
        w.stderr.close()


# -- the clean exit ----------------------------------------------------------


@pytest.mark.parametrize("shutdown, code", [(True, 0), (False, 1)])
def test_exit_ends_the_server_with_lsp_code_and_no_traceback(tmp_path: Path, shutdown: bool, code: int) -> None:
    """`exit` closes stdout: the CLI's final flush raised ValueError and every clean stop
    exited 1 with a traceback (seen in the editor's output at each restart)."""
    ws, cwd = _folders(tmp_path)
    w = Wire(ws, cwd)
    w.request("initialize", {"processId": None, "rootUri": ws.as_uri(), "capabilities": {}})
    if shutdown:
        w.request("shutdown")
    w.notify("exit", None)
    assert w.proc.wait(timeout=20) == code
    w.stderr.close()
    assert "Traceback" not in w.stderr_tail()


# -- random edit sequences ---------------------------------------------------

PIECES = ["x", "n", "self", " ", "    ", "(", ")", ":", "=", "+", "[0]", ".", ",", "'", '"', "#", "\\",
          "def ", "return ", "import torch\n", "@torch.compile\n", "for i in range(3):\n", "if n > 2:\n",
          "é", "ß", "漢字", "שלום", "😀", "🧪x", "e\u0301", "\u200b", "\t", "\n", "\r\n", "\x00", "\ufeff"]
WILD = ["\r", "\u2028", "\x0c", "\x85", "\ud800", "\udfff"]  # line breaks LSP and Python disagree on; lone surrogates


def _piece(rng: random.Random, wild: bool) -> str:
    roll = rng.random()
    if roll < 0.03:
        return "y" * rng.choice([5_000, 40_000])  # a very long line
    if wild and roll < 0.15:
        return rng.choice(WILD)
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6)))


def _lines(text: str) -> list[str]:
    """The lines as LSP counts them (\\n, \\r\\n, \\r), each with its ending."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text) or [""]


def _utf16(s: str) -> int:
    return sum(2 if ord(c) > 0xFFFF else 1 for c in s)


def _position(text: str, rng: random.Random) -> tuple[dict, int]:
    """A random position inside `text` (LSP's UTF-16 columns) and its index in the str."""
    lines = _lines(text)
    line = rng.randrange(len(lines))
    body = lines[line].rstrip("\r\n")
    col = rng.randint(0, len(body))
    return {"line": line, "character": _utf16(body[:col])}, sum(len(x) for x in lines[:line]) + col


def _out_of_bounds(rng: random.Random) -> dict:
    big = rng.choice([10**6, 2**31 - 1, 2**31, 2**53])
    start = {"line": rng.choice([0, 3, big]), "character": rng.choice([0, 999, big])}
    end = {"line": rng.choice([0, 1, big]), "character": rng.choice([0, big])}
    return {"start": start, "end": end}


def _random_requests(w: Wire, uri: str, rng: random.Random) -> None:
    for _ in range(rng.randint(0, 2)):
        pos = {"line": rng.choice([0, 1, 7, 10**6]), "character": rng.choice([0, 3, 10**6])}
        kind = rng.randrange(4)
        if kind == 0:
            w.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos})
        elif kind == 1:
            w.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {"start": pos, "end": pos},
                                                  "context": {"diagnostics": []}})
        elif kind == 2:
            w.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        else:
            response = w.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
            assert response.get("error", {}).get("code") == -32601, response  # not offered: method not found


@pytest.mark.parametrize("seed", range(SEQUENCES))
def test_random_edit_sequences(wire: Wire, seed: int) -> None:
    """30 edits: incremental (inside the text, past its end, start after end) and whole-text
    changes of random unicode (astral characters, combining marks, NUL, BOM, lone surrogates,
    every line break, 40,000-character lines), versions out of order, with hovers, code
    actions and saves in between. Then, edited in range only from a known text, the buffer
    must lint exactly as the same text opened fresh: the server's copy is in step."""
    rng = random.Random(seed)
    w = wire
    text = EXAMPLES[seed % len(EXAMPLES)].read_text(encoding="utf-8")
    uri = w.open(f"fuzz{seed}.py", text)
    version = 1
    for _ in range(EDITS):
        version += rng.choice([1, 1, 1, 1, 0, -1, 1000])
        kind = rng.random()
        if kind < 0.15:
            w.change(uri, version, [{"text": "".join(_piece(rng, True) for _ in range(rng.randint(0, 30)))}])
        elif kind < 0.35:
            w.change(uri, version, [{"range": _out_of_bounds(rng), "text": _piece(rng, True)}])
        else:  # in range, possibly several changes in one notification, possibly reversed
            changes = []
            for _ in range(rng.randint(1, 3)):
                (a, _), (b, _) = _position(text, rng), _position(text, rng)
                if rng.random() < 0.8:  # else, as it comes: the start may be after the end
                    a, b = sorted([a, b], key=lambda p: (p["line"], p["character"]))
                changes.append({"range": {"start": a, "end": b}, "text": _piece(rng, rng.random() < 0.3)})
            w.change(uri, version, changes)
        _random_requests(w, uri, rng)
    w.alive()

    # in step: from a known text, edits in range only, then the same text opened fresh
    text = EXAMPLES[(seed + 1) % len(EXAMPLES)].read_text(encoding="utf-8")
    version += 1
    w.change(uri, version, [{"text": text}])
    for _ in range(10):
        (start, i), (end, j) = sorted([_position(text, rng), _position(text, rng)], key=lambda p: p[1])
        new = _piece(rng, wild=False)
        text = text[:i] + new + text[j:]
        version += 1
        w.change(uri, version, [{"range": {"start": start, "end": end}, "text": new}])
    fresh = w.open(f"fresh{seed}.py", text)
    edited = w.published(uri, version)
    opened = w.published(fresh, 1)
    key = lambda d: (d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"],
                     d["range"]["end"]["line"], d["range"]["end"]["character"])
    assert sorted(map(key, edited)) == sorted(map(key, opened))
    w.notify("textDocument/didClose", {"textDocument": {"uri": fresh}})


# -- malformed JSON-RPC ------------------------------------------------------

H = b"Content-Length: %d\r\n\r\n"
DEEP = b"[" * 50_000 + b"]" * 50_000

# (what, bytes to send, the error code answering it: a request's id, or None for id null, or no answer)
FRAMES: list[tuple[str, bytes, tuple[Any, int] | None]] = [
    ("body that is not JSON", H % 5 + b"{bad}", (None, -32700)),
    ("body that is not UTF-8", H % 3 + b"\xff\xfe\xfd", (None, -32700)),
    ("JSON nested 50,000 deep", H % len(DEEP) + DEEP, (None, -32700)),
    ("a JSON array (a batch)", H % 2 + b"[]", (None, -32600)),
    ("JSON null", H % 4 + b"null", (None, -32600)),
    ("a JSON number", H % 2 + b"42", (None, -32600)),
    ("a JSON string", H % 5 + b'"abc"', (None, -32600)),
    ("frame without Content-Length", b"X-Junk: 1\r\n\r\n{}", None),
    ("Content-Length that is not a number", b"Content-Length: abc\r\n\r\n{}", None),
    ("Content-Length of zero", b"Content-Length: 0\r\n\r\n", None),
    ("Content-Length over the limit", b"Content-Length: 99999999999\r\n\r\n{}", None),
    ("negative Content-Length", b"Content-Length: -5\r\n\r\n{}", None),
    ("header without a colon", b"Content-Length 5\r\n\r\n{bad}", None),
    ("lower-case header, bare newlines", b"content-length: 40\n\n" + b'{"jsonrpc":"2.0","id":"lc","method":"x"}',
     ("lc", -32601)),
    ("junk bytes between frames", b"\x00\x01garbage\r\n", None),
    ("extra headers", b"Content-Type: application/weird\r\nX-A: b\r\n" + H % 40
     + b'{"jsonrpc":"2.0","id":"xh","method":"x"}', ("xh", -32601)),
]


def _req(msg_id: Any, method: Any, params: Any = ..., **extra: Any) -> bytes:
    message = {"jsonrpc": "2.0", "id": msg_id, "method": method, **extra}
    if params is not ...:
        message["params"] = params
    body = json.dumps(message).encode()
    return H % len(body) + body


def _messages(root: Path) -> list[tuple[str, bytes, tuple[Any, int] | None]]:
    unopened = (root / "nowhere.py").as_uri()
    return [
        ("unknown method", _req("u1", "vtlint/nothing", {}), ("u1", -32601)),
        ("unknown method, no params", _req("u2", "$/nothing"), ("u2", -32601)),
        ("method that is a number", _req("u3", 5, {}), ("u3", -32600)),
        ("id that is an object", _req({"a": 1}, "textDocument/hover", {}), (None, -32600)),
        ("id that is a boolean", _req(True, "shutdown"), (None, -32600)),
        ("jsonrpc 1.0", _frame(b'{"jsonrpc":"1.0","id":"v1","method":"x"}'), ("v1", -32600)),
        ("no jsonrpc member", _frame(b'{"id":"nj","method":"x"}'), ("nj", -32600)),
        ("hover: params of the wrong types", _req("p1", "textDocument/hover", {"textDocument": 5, "position": "x"}),
         ("p1", -32602)),
        ("hover: params an array", _req("p2", "textDocument/hover", [1, 2]), ("p2", -32602)),
        ("hover: negative position", _req("p3", "textDocument/hover",
                                          {"textDocument": {"uri": unopened}, "position": {"line": -1, "character": -5}}),
         ("p3", -32602)),
        ("hover: no params", _req("p4", "textDocument/hover"), ("p4", -32602)),
        ("codeAction: range a string", _req("p5", "textDocument/codeAction",
                                            {"textDocument": {"uri": unopened}, "range": "all", "context": {}}),
         ("p5", -32602)),
        ("executeCommand: command a number", _req("p6", "workspace/executeCommand", {"command": 5}), ("p6", -32602)),
        ("executeCommand: unknown command", _req("p7", "workspace/executeCommand", {"command": "rm -rf"}),
         ("p7", -32602)),
        ("initialize again", _req("p8", "initialize", {"capabilities": {}}), ("p8", -32600)),
        ("initialize again, params junk", _req("p9", "initialize", {"capabilities": "none"}), ("p9", -32600)),
        # notifications are never answered, whatever they hold
        ("didOpen: text a number", _note("textDocument/didOpen", {"textDocument": {
            "uri": unopened, "languageId": "python", "version": 1, "text": 5}}), None),
        ("didChange: not open", _note("textDocument/didChange", {"textDocument": {"uri": unopened, "version": 2},
                                                                 "contentChanges": [{"text": "x"}]}), None),
        ("didChange: changes an object", _note("textDocument/didChange", {"textDocument": {"uri": unopened},
                                                                          "contentChanges": {"text": 1}}), None),
        ("didSave: not open", _note("textDocument/didSave", {"textDocument": {"uri": unopened}}), None),
        ("didClose: not open", _note("textDocument/didClose", {"textDocument": {"uri": unopened}}), None),
        ("didOpen: an untitled buffer", _note("textDocument/didOpen", {"textDocument": {
            "uri": "untitled:Untitled-1", "languageId": "python", "version": 1, "text": "x = 1\n"}}), None),
        ("didOpen: a URI that is not one", _note("textDocument/didOpen", {"textDocument": {
            "uri": "not a uri.py", "languageId": "python", "version": 1, "text": "x = 1\n"}}), None),
        ("didChangeConfiguration: settings a list", _note("workspace/didChangeConfiguration", {"settings": [1]}), None),
        ("didChangeWatchedFiles: junk URIs", _note("workspace/didChangeWatchedFiles",
                                                   {"changes": [{"uri": "file:///%00", "type": 2}]}), None),
        ("unknown notification", _note("vtlint/whatever", {"x": 1}), None),
        ("$/cancelRequest for no request", _note("$/cancelRequest", {"id": 12345}), None),
        ("a response to nothing", _frame(b'{"jsonrpc":"2.0","id":777,"result":1}'), None),
        ("an error response to nothing", _frame(b'{"jsonrpc":"2.0","id":778,"error":{"code":1,"message":"m"}}'),
         None),
    ]


def _note(method: str, params: Any) -> bytes:
    return _frame(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode())


def _frame(body: bytes) -> bytes:
    return H % len(body) + body


def test_malformed_frames_and_messages(wire: Wire) -> None:
    """Bad headers, bad JSON and bad JSON-RPC, each followed by a request that must be
    answered: a broken frame costs that frame only. Requests with the wrong params, unknown
    methods and bad ids get their JSON-RPC error, notifications nothing."""
    w = wire
    cases = FRAMES + _messages(w.root)
    assert len(cases) == 45
    for what, data, expected in cases:
        before = len(w.null_id)
        w.raw(data)
        w.alive()
        if expected is None:
            continue
        msg_id, code = expected
        if msg_id is None:
            assert len(w.null_id) == before + 1, what
            answer = w.null_id[-1]
            no_traceback(answer)
        else:
            answer = w.answer(msg_id, timeout=5)
        assert answer.get("error", {}).get("code") == code, (what, answer)
    # requests on documents that are not open: empty answers, not errors
    nowhere = {"uri": w.uri("nowhere.py")}
    assert w.request("textDocument/hover", {"textDocument": nowhere, "position": {"line": 0, "character": 0}}) \
        == {"jsonrpc": "2.0", "id": w.ids, "result": None}
    assert w.request("textDocument/codeAction", {"textDocument": nowhere, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
        "context": {"diagnostics": []}})["result"] == []
    # the untitled buffer and the junk URI made no project of the server's working directory
    assert all(Path(p).is_relative_to(w.root) for p in w.alive()["projects"])
    uri = w.open("after.py", BROKEN)
    [diagnostic] = w.published(uri, 1)
    assert diagnostic["code"] == "VTL001" and diagnostic["range"]["start"]["line"] == 1


# -- mutated messages --------------------------------------------------------


JUNK = [None, True, -1, 2**31, 2**64, 0.5, 1e308, "", "é😀\x00\ud800", "file:///..", [], {}]


def _junk(rng: random.Random, depth: int = 0) -> Any:
    """Arbitrary JSON: a scalar or empty container from JUNK, or (shallow) a list or object of junk."""
    roll = rng.randrange(len(JUNK) + (2 if depth < 3 else 0))
    if roll < len(JUNK):
        return JUNK[roll]
    if roll == len(JUNK):
        return [_junk(rng, depth + 1) for _ in range(rng.randint(1, 3))]
    return {rng.choice(["uri", "line", "x", "text"]): _junk(rng, depth + 1)}


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


def _templates(w: Wire, uri: str) -> list[dict]:
    pos = {"line": 1, "character": 4}
    rng_ = {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 0}}
    doc = {"uri": uri}
    return [
        {"id": 0, "method": "textDocument/hover", "params": {"textDocument": doc, "position": pos}},
        {"id": 0, "method": "textDocument/codeAction", "params": {"textDocument": doc, "range": rng_, "context": {
            "diagnostics": [{"range": rng_, "message": "m", "code": "VTL001", "source": "vtlint"}]}}},
        {"id": 0, "method": "workspace/executeCommand", "params": {"command": "vtlint.serverStatus", "arguments": [uri]}},
        {"id": 0, "method": "workspace/executeCommand", "params": {"command": "vtlint.confirmAtRuntime",
                                                                   "arguments": [uri]}},
        {"method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": 50},
                                                        "contentChanges": [{"range": rng_, "text": "x = 1\n"}]}},
        {"method": "textDocument/didSave", "params": {"textDocument": doc}},
        {"method": "workspace/didChangeConfiguration", "params": {"settings": {"select": ["VTL"], "enable": True}}},
        {"method": "workspace/didChangeWatchedFiles", "params": {"changes": [{"uri": w.uri("pyproject.toml"),
                                                                              "type": 2}]}},
        {"method": "textDocument/didOpen", "params": {"textDocument": {"uri": w.uri("other.py"), "languageId": "python",
                                                                       "version": 1, "text": BROKEN}}},
    ]


def test_mutated_messages(wire: Wire) -> None:
    """Valid requests and notifications with one node replaced by arbitrary JSON (null,
    huge and negative numbers, lone surrogates, nested junk): every request is answered
    without a traceback, and the server lints afterwards."""
    w = wire
    rng = random.Random(16)
    uri = w.open("target.py", EXAMPLES[0].read_text(encoding="utf-8"))
    templates = _templates(w, uri)
    for n in range(MUTATED):
        message = json.loads(json.dumps(rng.choice(templates)))
        path = rng.choice(_paths(message["params"]))
        node = message["params"]
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = _junk(rng)
        message["jsonrpc"] = "2.0"
        if "id" in message:
            message["id"] = msg_id = f"m{n}"
            w.send(message)
            w.answer(msg_id)
        else:
            w.send(message)
        if n % 10 == 9:
            w.alive()
    w.alive()
    again = w.open("again.py", BROKEN)
    assert [d["code"] for d in w.published(again, 1)] == ["VTL001"]
